import { describe, expect, it, vi } from 'vitest';
import type { BrowserState } from '../common/ipc';
import {
  clampBounds,
  hardenBrowserSession,
  LIVE_BROWSER_PARTITION,
  LiveBrowser,
  liveBrowserPreferences,
  loadErrorMessage,
  parseBrowserUrl,
  registerLiveBrowserHandlers,
  type BrowserSession,
  type BrowserView,
  type HostWindow,
} from './live-browser';
import type { IpcRegistrar } from './ipc';

const SERVER = 'http://127.0.0.1:53211';

type Handler = (...args: never[]) => void;

/** Listeners by event name, and a way to fire them as Electron would. */
function emitter() {
  const listeners = new Map<string, Handler[]>();
  const on = (event: string, listener: Handler) => void listeners.set(event, [...(listeners.get(event) ?? []), listener]);
  const fire = (event: string, ...args: unknown[]) => {
    for (const listener of listeners.get(event) ?? []) (listener as (...a: unknown[]) => void)(...args);
  };
  return { on, fire };
}

function navigation(url: string, isMainFrame = true) {
  return { url, isMainFrame, preventDefault: vi.fn() };
}

function fakeView() {
  const events = emitter();
  let openHandler: ((details: { url: string }) => { action: 'deny' }) | undefined;
  const page = { url: '', title: '', loading: false, back: false, forward: false, destroyed: false };
  const contents = {
    on: events.on,
    loadURL: vi.fn(async (url: string) => {
      page.url = url;
    }),
    getURL: () => page.url,
    getTitle: () => page.title,
    isLoading: () => page.loading,
    reload: vi.fn(),
    navigationHistory: { canGoBack: () => page.back, canGoForward: () => page.forward, goBack: vi.fn(), goForward: vi.fn() },
    setWindowOpenHandler: (handler: typeof openHandler) => void (openHandler = handler),
    closeDevTools: vi.fn(),
    isDestroyed: () => page.destroyed,
    close: vi.fn(() => void (page.destroyed = true)),
  };
  const view = { webContents: contents, setBounds: vi.fn(), setVisible: vi.fn() } satisfies BrowserView;
  return { view, contents, page, fire: events.fire, windowOpen: (url: string) => openHandler!({ url }) };
}

function fakeWindow(size = [1280, 800], zoom = 1) {
  const own = emitter();
  const contents = emitter();
  let destroyed = false;
  const children = new Set<BrowserView>();
  const window: HostWindow = {
    isDestroyed: () => destroyed,
    getContentSize: () => size,
    contentView: { addChildView: (view) => void children.add(view), removeChildView: (view) => void children.delete(view) },
    webContents: { getZoomFactor: () => zoom, on: contents.on },
    on: own.on,
  };
  return { window, children, fire: own.fire, fireContents: contents.fire, destroy: () => void (destroyed = true) };
}

function fakeSession() {
  const events = emitter();
  const session = {
    request: undefined as undefined | ((contents: unknown, permission: string, callback: (granted: boolean) => void) => void),
    check: undefined as undefined | (() => boolean),
    device: undefined as undefined | (() => boolean),
  };
  const api: BrowserSession = {
    setPermissionRequestHandler: (handler) => void (session.request = handler),
    setPermissionCheckHandler: (handler) => void (session.check = handler),
    setDevicePermissionHandler: (handler) => void (session.device = handler),
    on: events.on,
  };
  return { api, session, fire: events.fire };
}

function setUp(options: { size?: number[]; zoom?: number } = {}) {
  const views: ReturnType<typeof fakeView>[] = [];
  const win = fakeWindow(options.size, options.zoom);
  const session = fakeSession();
  const states: BrowserState[] = [];
  let current: HostWindow | null = win.window;
  const browser = new LiveBrowser({
    serverOrigin: SERVER,
    getWindow: () => current,
    createView: () => {
      const view = fakeView();
      views.push(view);
      return view.view;
    },
    session: () => session.api,
    emit: (state) => states.push(state),
  });
  return { browser, views, win, session, states, setWindow: (w: HostWindow | null) => (current = w) };
}

const BOX = { x: 40, y: 300, width: 800, height: 500 };

describe('the live browser view', () => {
  it('has no preload, no Node, a sandbox, isolation, no webview tag, no dev tools, and an in-memory partition', () => {
    const preferences = liveBrowserPreferences();
    expect(preferences).not.toHaveProperty('preload');
    expect(preferences).toMatchObject({
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      devTools: false,
      partition: LIVE_BROWSER_PARTITION,
    });
    expect(LIVE_BROWSER_PARTITION).not.toMatch(/^persist:/);
  });

  it('accepts http(s) sites only: not file:, app:, javascript:, data:, credentials or the embedded server', () => {
    expect(parseBrowserUrl('https://example.com/a?b=1', SERVER)?.href).toBe('https://example.com/a?b=1');
    expect(parseBrowserUrl('http://192.168.1.20:3000/', SERVER)?.href).toBe('http://192.168.1.20:3000/');
    for (const refused of [
      'file:///etc/passwd',
      'app://vibeeval/dashboard',
      'javascript:alert(1)',
      'data:text/html,<h1>x</h1>',
      'https://user:pass@example.com/',
      `${SERVER}/dashboard`,
      'http://localhost:53211/',
      'http://[::1]:53211/',
      'example.com',
      42,
      `https://example.com/${'a'.repeat(3000)}`,
    ]) {
      expect(parseBrowserUrl(refused, SERVER), String(refused)).toBeNull();
    }
  });

  it('denies every permission request and check, and cancels downloads', () => {
    const { api, session, fire } = fakeSession();
    hardenBrowserSession(api);
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'clipboard-sanitized-write']) {
      const callback = vi.fn();
      session.request!({}, permission, callback);
      expect(callback).toHaveBeenCalledWith(false);
    }
    expect(session.check!()).toBe(false);
    expect(session.device!()).toBe(false);
    const item = { cancel: vi.fn() };
    fire('will-download', {}, item);
    expect(item.cancel).toHaveBeenCalledOnce();
  });

  it('shows a site in a view added to the window, hardening its session first', () => {
    const { browser, views, win, session } = setUp();
    expect(browser.show('https://example.com/', BOX)).toBe(true);
    expect(views).toHaveLength(1);
    expect(win.children.has(views[0]!.view)).toBe(true);
    expect(views[0]!.contents.loadURL).toHaveBeenCalledWith('https://example.com/');
    expect(session.session.request).toBeTypeOf('function');
    expect(views[0]!.view.setBounds).toHaveBeenLastCalledWith(BOX);
    // A second show reuses the view.
    expect(browser.show('https://example.org/', BOX)).toBe(true);
    expect(views).toHaveLength(1);
    expect(views[0]!.contents.loadURL).toHaveBeenLastCalledWith('https://example.org/');
  });

  it('refuses to show or navigate to bad addresses, and to show without a window', () => {
    const { browser, views, setWindow } = setUp();
    expect(browser.show('file:///etc/passwd', BOX)).toBe(false);
    expect(browser.show(`${SERVER}/`, BOX)).toBe(false);
    expect(views).toHaveLength(0);
    expect(browser.navigate('https://example.com/')).toBe(false); // nothing shown yet
    setWindow(null);
    expect(browser.show('https://example.com/', BOX)).toBe(false);
    setWindow(setUp().win.window);
    expect(browser.show('https://example.com/', BOX)).toBe(true);
    expect(browser.navigate('javascript:alert(1)')).toBe(false);
    expect(browser.navigate('data:text/html,x')).toBe(false);
    expect(browser.navigate('https://example.net/')).toBe(true);
    expect(views[0]!.contents.loadURL).toHaveBeenLastCalledWith('https://example.net/');
  });

  it('cancels page navigations and redirects to other schemes or the server, lets sites through', () => {
    const { browser, views } = setUp();
    browser.show('https://example.com/', BOX);
    const { fire } = views[0]!;
    for (const url of ['file:///etc/passwd', 'app://vibeeval/', 'javascript:alert(1)', `${SERVER}/auth/v1/token`]) {
      const event = navigation(url);
      fire('will-navigate', event);
      expect(event.preventDefault, url).toHaveBeenCalled();
      const redirect = navigation(url);
      fire('will-redirect', redirect);
      expect(redirect.preventDefault, url).toHaveBeenCalled();
    }
    const ok = navigation('https://example.com/next');
    fire('will-navigate', ok);
    expect(ok.preventDefault).not.toHaveBeenCalled();
    // Sub-frames are the site's own business (and under the sandbox's rules).
    const frame = navigation('data:text/html,x', false);
    fire('will-navigate', frame);
    expect(frame.preventDefault).not.toHaveBeenCalled();
    const webview = { preventDefault: vi.fn() };
    fire('will-attach-webview', webview);
    expect(webview.preventDefault).toHaveBeenCalled();
  });

  it('never opens a window: an allowed target loads in the view itself, others nowhere', () => {
    const { browser, views } = setUp();
    browser.show('https://example.com/', BOX);
    const view = views[0]!;
    expect(view.windowOpen('https://example.com/popup')).toEqual({ action: 'deny' });
    expect(view.contents.loadURL).toHaveBeenLastCalledWith('https://example.com/popup');
    view.contents.loadURL.mockClear();
    expect(view.windowOpen('file:///etc/passwd')).toEqual({ action: 'deny' });
    expect(view.windowOpen(`${SERVER}/`)).toEqual({ action: 'deny' });
    expect(view.contents.loadURL).not.toHaveBeenCalled();
  });

  it('closes dev tools when they open', () => {
    const { browser, views } = setUp();
    browser.show('https://example.com/', BOX);
    views[0]!.fire('devtools-opened');
    expect(views[0]!.contents.closeDevTools).toHaveBeenCalled();
  });

  it('goes back, forward and reloads only when it can', () => {
    const { browser, views } = setUp();
    browser.back();
    browser.reload(); // nothing shown: nothing happens, nothing throws
    browser.show('https://example.com/', BOX);
    const { contents, page } = views[0]!;
    browser.back();
    browser.forward();
    expect(contents.navigationHistory.goBack).not.toHaveBeenCalled();
    expect(contents.navigationHistory.goForward).not.toHaveBeenCalled();
    page.back = true;
    page.forward = true;
    browser.back();
    browser.forward();
    browser.reload();
    expect(contents.navigationHistory.goBack).toHaveBeenCalledOnce();
    expect(contents.navigationHistory.goForward).toHaveBeenCalledOnce();
    expect(contents.reload).toHaveBeenCalledOnce();
  });
});

describe('bounds', () => {
  it('cuts the box to the window and scales it by the page zoom', () => {
    expect(clampBounds({ x: 10, y: 20, width: 300, height: 200 }, 1, { width: 1280, height: 800 })).toEqual({ x: 10, y: 20, width: 300, height: 200 });
    // Scrolled half out of view at the top, and wider than the window.
    expect(clampBounds({ x: -50, y: -100, width: 2000, height: 300 }, 1, { width: 1280, height: 800 })).toEqual({ x: 0, y: 0, width: 1280, height: 200 });
    // Entirely below the window: nothing left to show.
    expect(clampBounds({ x: 0, y: 900, width: 500, height: 300 }, 1, { width: 1280, height: 800 })).toEqual({ x: 0, y: 800, width: 500, height: 0 });
    expect(clampBounds({ x: 10, y: 20, width: 100, height: 100 }, 1.5, { width: 1280, height: 800 })).toEqual({ x: 15, y: 30, width: 150, height: 150 });
    expect(clampBounds({ x: 10, y: 20, width: 100, height: 100 }, Number.NaN, { width: 1280, height: 800 })).toEqual({ x: 10, y: 20, width: 100, height: 100 });
  });

  it('moves the view, hides it when nothing of the box is in the window, and re-cuts it when the window is resized', () => {
    const size = [1280, 800];
    const { browser, views, win } = setUp({ size });
    browser.show('https://example.com/', BOX);
    const view = views[0]!.view;
    expect(view.setVisible).toHaveBeenLastCalledWith(true);
    browser.setBounds({ x: 0, y: 1200, width: 800, height: 500 });
    expect(view.setVisible).toHaveBeenLastCalledWith(false);
    browser.setBounds({ x: 0, y: 100, width: 2000, height: 500 });
    expect(view.setBounds).toHaveBeenLastCalledWith({ x: 0, y: 100, width: 1280, height: 500 });
    size[0] = 600;
    win.fire('resize');
    expect(view.setBounds).toHaveBeenLastCalledWith({ x: 0, y: 100, width: 600, height: 500 });
  });
});

describe('state events', () => {
  it('reports navigations, titles and loading with the history state', () => {
    const { browser, views, states } = setUp();
    browser.show('https://example.com/', BOX);
    const { fire, page } = views[0]!;
    page.loading = true;
    fire('did-start-loading');
    expect(states.at(-1)).toEqual({ url: 'https://example.com/', title: '', loading: true, canGoBack: false, canGoForward: false });
    page.title = 'Example Domain';
    page.loading = false;
    page.back = true;
    fire('did-navigate');
    fire('page-title-updated');
    fire('did-stop-loading');
    expect(states.at(-1)).toEqual({ url: 'https://example.com/', title: 'Example Domain', loading: false, canGoBack: true, canGoForward: false });
    page.url = 'https://example.com/#section';
    fire('did-navigate-in-page');
    expect(states.at(-1)?.url).toBe('https://example.com/#section');
    expect(states).toHaveLength(5);
  });

  it('reports a failed main-frame load with a clear message, until the next load starts', () => {
    const { browser, views, states } = setUp();
    browser.show('https://nowhere.invalid/', BOX);
    const { fire } = views[0]!;
    fire('did-fail-load', {}, -105, 'ERR_NAME_NOT_RESOLVED', 'https://nowhere.invalid/', true);
    expect(states.at(-1)?.error).toBe('nowhere.invalid cannot be reached: its address could not be found.');
    // Sub-frame failures and aborted loads (replaced by another) say nothing.
    fire('did-fail-load', {}, -102, 'ERR_CONNECTION_REFUSED', 'https://ads.example/', false);
    fire('did-fail-load', {}, -3, 'ERR_ABORTED', 'https://nowhere.invalid/', true);
    expect(states).toHaveLength(1);
    fire('did-start-loading');
    expect(states.at(-1)).not.toHaveProperty('error');
  });

  it('words load errors for users', () => {
    expect(loadErrorMessage(-102, 'ERR_CONNECTION_REFUSED', 'http://127.0.0.1:9/')).toBe('127.0.0.1:9 cannot be reached: it refused the connection.');
    expect(loadErrorMessage(-202, 'ERR_CERT_AUTHORITY_INVALID', 'https://self-signed.example/')).toBe(
      'self-signed.example cannot be shown: its certificate is not valid (ERR_CERT_AUTHORITY_INVALID).',
    );
    expect(loadErrorMessage(-999, '', 'not a url')).toBe('The site cannot be reached (error -999).');
  });
});

describe('closing', () => {
  it('hide removes the view and closes its page; later calls do nothing', () => {
    const { browser, views, win, states } = setUp();
    browser.show('https://example.com/', BOX);
    const view = views[0]!;
    browser.hide();
    expect(win.children.size).toBe(0);
    expect(view.contents.close).toHaveBeenCalledOnce();
    expect(browser.showing).toBe(false);
    expect(browser.state()).toBeNull();
    view.fire('did-stop-loading');
    expect(states).toHaveLength(0);
    browser.hide();
    expect(browser.navigate('https://example.com/')).toBe(false);
    // Shown again: a fresh view (and a fresh page: nothing of the old one).
    browser.show('https://example.com/', BOX);
    expect(views).toHaveLength(2);
  });

  it('goes when the window closes', () => {
    const { browser, views, win } = setUp();
    browser.show('https://example.com/', BOX);
    win.destroy();
    win.fire('closed');
    expect(views[0]!.contents.close).toHaveBeenCalledOnce();
    expect(browser.showing).toBe(false);
  });

  it('goes when the app page reloads or leaves, not on its in-page navigations', () => {
    const { browser, views, win } = setUp();
    browser.show('https://example.com/', BOX);
    win.fireContents('did-start-navigation', { isMainFrame: true, isSameDocument: true });
    win.fireContents('did-start-navigation', { isMainFrame: false, isSameDocument: false });
    expect(browser.showing).toBe(true);
    win.fireContents('did-start-navigation', { isMainFrame: true, isSameDocument: false });
    expect(browser.showing).toBe(false);
    expect(views[0]!.contents.close).toHaveBeenCalledOnce();
    browser.show('https://example.com/', BOX);
    win.fireContents('render-process-gone', {}, { reason: 'crashed' });
    expect(browser.showing).toBe(false);
  });

  it('watches each window once however often it is shown', () => {
    const { browser, win } = setUp();
    const on = vi.spyOn(win.window, 'on');
    browser.show('https://example.com/', BOX);
    browser.hide();
    browser.show('https://example.com/', BOX);
    // 'closed' and 'resize', added at the first show only.
    expect(on).toHaveBeenCalledTimes(2);
  });
});

describe('IPC handlers', () => {
  it('registers every browser channel and passes the checked arguments through', async () => {
    const handlers = new Map<string, (...args: unknown[]) => unknown>();
    const ipc = { handle: (channel: string, handler: (...args: unknown[]) => unknown) => handlers.set(channel, handler) } as unknown as IpcRegistrar;
    const { browser, views } = setUp();
    registerLiveBrowserHandlers(ipc, browser);
    expect([...handlers.keys()].sort()).toEqual([
      'vibeeval:browser:back',
      'vibeeval:browser:forward',
      'vibeeval:browser:hide',
      'vibeeval:browser:navigate',
      'vibeeval:browser:reload',
      'vibeeval:browser:set-bounds',
      'vibeeval:browser:show',
    ]);
    expect(await handlers.get('vibeeval:browser:show')!({ url: 'https://example.com/', bounds: BOX })).toBe(true);
    expect(await handlers.get('vibeeval:browser:navigate')!({ url: 'file:///etc/passwd' })).toBe(false);
    await handlers.get('vibeeval:browser:set-bounds')!({ x: 1, y: 2, width: 3, height: 4 });
    expect(views[0]!.view.setBounds).toHaveBeenLastCalledWith({ x: 1, y: 2, width: 3, height: 4 });
    await handlers.get('vibeeval:browser:hide')!();
    expect(browser.showing).toBe(false);
  });
});
