import { EventEmitter } from 'node:events';
import type { Session, WebContents } from 'electron';
import { describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => ({ shell: { openExternal: vi.fn(async () => undefined) } }));

const { guardWebContents, hardenSession, isPermissionGranted } = await import('./navigation');

/** A web contents with just what the guard touches: window-open handler and navigation events. */
class FakeContents extends EventEmitter {
  openHandler: ((details: { url: string }) => { action: string }) | null = null;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }) {
    this.openHandler = handler;
  }
  /** Emits a navigation event; true when the guard cancelled it. */
  navigate(event: 'will-navigate' | 'will-redirect', url: string, isMainFrame = true): boolean {
    let prevented = false;
    this.emit(event, { url, isMainFrame, preventDefault: () => (prevented = true) });
    return prevented;
  }
}

function guarded() {
  const contents = new FakeContents();
  const openExternal = vi.fn(async (_url: string) => true);
  guardWebContents(contents as unknown as WebContents, openExternal);
  return { contents, openExternal };
}

describe('guardWebContents', () => {
  it('denies every window.open and sends http(s) targets to the system browser', () => {
    const { contents, openExternal } = guarded();
    expect(contents.openHandler?.({ url: 'https://docs.example.com/' })).toEqual({ action: 'deny' });
    expect(contents.openHandler?.({ url: 'app://vibeeval/report/1' })).toEqual({ action: 'deny' });
    expect(contents.openHandler?.({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(contents.openHandler?.({ url: 'javascript:alert(1)' })).toEqual({ action: 'deny' });
    expect(openExternal.mock.calls).toEqual([['https://docs.example.com/']]);
  });

  it('lets navigation stay on app://vibeeval and cancels everything else', () => {
    const { contents, openExternal } = guarded();
    expect(contents.navigate('will-navigate', 'app://vibeeval/dashboard')).toBe(false);
    for (const url of ['https://evil.example/', 'http://127.0.0.1:8787/', 'file:///etc/passwd', 'app://other/', 'data:text/html,x', 'about:blank']) {
      expect(contents.navigate('will-navigate', url)).toBe(true);
    }
    // A plain link to a web page opens in the browser; nothing else does.
    expect(openExternal.mock.calls).toEqual([['https://evil.example/'], ['http://127.0.0.1:8787/']]);
  });

  it('hands mailto links (contact, press, affiliate) to the mail app, and nothing with extra recipients', () => {
    const { contents, openExternal } = guarded();
    expect(contents.navigate('will-navigate', 'mailto:support@vibe-eval.com')).toBe(true);
    expect(contents.openHandler?.({ url: 'mailto:affiliates@vibe-eval.com?subject=Apply' })).toEqual({ action: 'deny' });
    expect(contents.navigate('will-navigate', 'mailto:a@example.com?bcc=b@example.com')).toBe(true);
    expect(openExternal.mock.calls).toEqual([['mailto:support@vibe-eval.com'], ['mailto:affiliates@vibe-eval.com?subject=Apply']]);
  });

  it('cancels redirects off the app without opening anything', () => {
    const { contents, openExternal } = guarded();
    expect(contents.navigate('will-redirect', 'app://vibeeval/index.html')).toBe(false);
    expect(contents.navigate('will-redirect', 'https://evil.example/')).toBe(true);
    expect(openExternal).not.toHaveBeenCalled();
  });

  it('refuses to attach a <webview>', () => {
    const { contents } = guarded();
    const preventDefault = vi.fn();
    contents.emit('will-attach-webview', { preventDefault });
    expect(preventDefault).toHaveBeenCalled();
  });
});

describe('permissions', () => {
  it('grants notifications and clipboard writes to the app only, and nothing else', () => {
    expect(isPermissionGranted('notifications', 'app://vibeeval/dashboard')).toBe(true);
    expect(isPermissionGranted('clipboard-sanitized-write', 'app://vibeeval')).toBe(true);
    expect(isPermissionGranted('notifications', 'https://evil.example/')).toBe(false);
    for (const permission of ['media', 'geolocation', 'clipboard-read', 'openExternal', 'display-capture', 'fileSystem', 'unknown']) {
      expect(isPermissionGranted(permission, 'app://vibeeval/')).toBe(false);
    }
  });

  it('installs request and check handlers that follow that rule', () => {
    let request: ((...args: unknown[]) => void) | undefined;
    let check: ((...args: unknown[]) => boolean) | undefined;
    const session = {
      setPermissionRequestHandler: (handler: typeof request) => (request = handler),
      setPermissionCheckHandler: (handler: typeof check) => (check = handler),
    };
    hardenSession(session as unknown as Session);

    const answers: boolean[] = [];
    request?.(null, 'media', (granted: boolean) => answers.push(granted), { requestingUrl: 'app://vibeeval/' });
    request?.(null, 'notifications', (granted: boolean) => answers.push(granted), { requestingUrl: 'app://vibeeval/' });
    expect(answers).toEqual([false, true]);
    expect(check?.(null, 'notifications', 'app://vibeeval')).toBe(true);
    expect(check?.(null, 'geolocation', 'app://vibeeval')).toBe(false);
  });
});
