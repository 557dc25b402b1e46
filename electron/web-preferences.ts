import type { WebPreferences } from 'electron';

/**
 * What every web contents of the app runs with (the app window, report windows, the live browser): isolated and
 * sandboxed, no Node anywhere, web security on, no <webview>, no navigation by dropping a file. Each caller adds
 * its own preload (the app window only), partition and extras.
 */
export const ISOLATED_WEB_PREFERENCES = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInSubFrames: false,
  nodeIntegrationInWorker: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  webviewTag: false,
  navigateOnDragDrop: false,
} as const satisfies WebPreferences;
