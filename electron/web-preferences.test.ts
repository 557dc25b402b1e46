import { describe, expect, it } from 'vitest';
import { ISOLATED_WEB_PREFERENCES } from './web-preferences';

describe('ISOLATED_WEB_PREFERENCES', () => {
  it('isolates and sandboxes every web contents, with no Node, no webview tag and web security on', () => {
    expect(ISOLATED_WEB_PREFERENCES).toEqual({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
    });
  });
});
