import type { Rectangle, WebPreferences } from 'electron';
import { ISOLATED_WEB_PREFERENCES } from './web-preferences';
import type { BrowserBounds, BrowserState } from '../common/ipc';
import { browserUrlSchema, isOwnServer } from '../common/live-browser';
import type { IpcRegistrar } from './ipc';

/**
 * The live browser of /vibe-loop's Live Browser Demo: a site under test shown in a native view (WebContentsView)
 * that main owns and draws over a box of the app's page. The site is nobody we trust: no preload (no bridge), no
 * Node, a sandboxed renderer, its own in-memory session, every permission and download refused, no dev tools,
 * no new windows, and only http(s) pages that are not the embedded server. Electron is reached through the small
 * interfaces below so this is unit tested without it; main.ts hands in the real objects.
 */

/** In-memory (no `persist:` prefix): cookies and storage of the sites shown are gone when the app quits. */
export const LIVE_BROWSER_PARTITION = 'vibeeval-live-browser';

/** The view's web preferences: nothing of the app reaches the page. */
export function liveBrowserPreferences(): WebPreferences {
  return {
    // No `preload`: the site must not reach the bridge.
    ...ISOLATED_WEB_PREFERENCES,
    spellcheck: false,
    devTools: false,
    safeDialogs: true,
    partition: LIVE_BROWSER_PARTITION,
  };
}

/** `raw` as a URL the live browser may show: http(s), no credentials, not the embedded server; else null. */
export function parseBrowserUrl(raw: unknown, serverOrigin: string): URL | null {
  const parsed = browserUrlSchema.safeParse(raw);
  if (!parsed.success) return null;
  const url = new URL(parsed.data);
  return isOwnServer(url, serverOrigin) ? null : url;
}

/** The session of the view, as far as the live browser uses it. */
export interface BrowserSession {
  setPermissionRequestHandler(handler: (contents: unknown, permission: string, callback: (granted: boolean) => void) => void): void;
  setPermissionCheckHandler(handler: () => boolean): void;
  setDevicePermissionHandler(handler: () => boolean): void;
  on(event: 'will-download', listener: (event: unknown, item: { cancel(): void }) => void): unknown;
}

const hardenedSessions = new WeakSet<BrowserSession>();

/** Every permission (camera, notifications, geolocation, USB...) denied, every download cancelled. */
export function hardenBrowserSession(session: BrowserSession): void {
  if (hardenedSessions.has(session)) return;
  hardenedSessions.add(session);
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
  session.on('will-download', (_event, item) => item.cancel());
}

/** A navigation event of Electron: cancellable, with its target. */
export interface NavigationEvent {
  url: string;
  isMainFrame: boolean;
  preventDefault(): void;
}

type Listener = (...args: never[]) => void;

/** The view's web contents, as far as the live browser uses it. */
export interface BrowserContents {
  loadURL(url: string): Promise<void>;
  getURL(): string;
  getTitle(): string;
  isLoading(): boolean;
  reload(): void;
  navigationHistory: { canGoBack(): boolean; canGoForward(): boolean; goBack(): void; goForward(): void };
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
  on(event: string, listener: Listener): unknown;
  closeDevTools(): void;
  isDestroyed(): boolean;
  close(): void;
}

/** The native view: its contents and where it is drawn. */
export interface BrowserView {
  webContents: BrowserContents;
  setBounds(bounds: Rectangle): void;
  setVisible(visible: boolean): void;
}

/** The window the view is drawn in, as far as the live browser uses it (V: the view type it takes). */
export interface HostWindow<V extends BrowserView = BrowserView> {
  isDestroyed(): boolean;
  getContentSize(): number[];
  contentView: { addChildView(view: V): void; removeChildView(view: V): void };
  webContents: { getZoomFactor(): number; on(event: string, listener: Listener): unknown };
  on(event: 'closed' | 'resize', listener: () => void): unknown;
}

/** `bounds` (CSS pixels of the page, at `zoom`) in window pixels, cut to the window's content area. */
export function clampBounds(bounds: BrowserBounds, zoom: number, content: { width: number; height: number }): Rectangle {
  const scale = Number.isFinite(zoom) && zoom > 0 ? zoom : 1;
  const left = Math.min(Math.max(Math.round(bounds.x * scale), 0), content.width);
  const top = Math.min(Math.max(Math.round(bounds.y * scale), 0), content.height);
  const right = Math.min(Math.max(Math.round((bounds.x + bounds.width) * scale), left), content.width);
  const bottom = Math.min(Math.max(Math.round((bounds.y + bounds.height) * scale), top), content.height);
  return { x: left, y: top, width: right - left, height: bottom - top };
}

/** Chromium's network error codes (net_error_list.h) the user can act on, worded for them. */
const LOAD_ERRORS: Record<number, (host: string) => string> = {
  [-105]: (host) => `${host} cannot be reached: its address could not be found.`,
  [-102]: (host) => `${host} cannot be reached: it refused the connection.`,
  [-118]: (host) => `${host} cannot be reached: it did not answer in time.`,
  [-7]: (host) => `${host} cannot be reached: it did not answer in time.`,
  [-106]: () => 'The site cannot be reached: this computer is not connected to the internet.',
  [-109]: (host) => `${host} cannot be reached: the address is unreachable.`,
  [-101]: (host) => `${host} cannot be reached: the connection was reset.`,
};

/** What the view says when a page could not be loaded. */
export function loadErrorMessage(code: number, description: string, url: string): string {
  const host = URL.canParse(url) ? new URL(url).host : 'The site';
  const known = LOAD_ERRORS[code];
  if (known) return known(host);
  // Certificate errors are -200 to -299.
  if (code <= -200 && code > -300) return `${host} cannot be shown: its certificate is not valid (${description}).`;
  return `${host} cannot be reached (${description || `error ${code}`}).`;
}

/**
 * Keeps the view on sites: `window.open` never opens a window (an allowed http(s) target loads in the view
 * itself, as a browser tab would show it), and main-frame navigations or redirects to anything else (file:,
 * app:, javascript:, data:, the embedded server) are cancelled. Dev tools are closed if they ever open.
 */
export function guardBrowserContents(contents: BrowserContents, serverOrigin: string, load: (url: string) => void): void {
  contents.setWindowOpenHandler(({ url }) => {
    const target = parseBrowserUrl(url, serverOrigin);
    if (target) load(target.href);
    return { action: 'deny' };
  });
  const refuse = (event: NavigationEvent) => {
    if (event.isMainFrame && !parseBrowserUrl(event.url, serverOrigin)) event.preventDefault();
  };
  contents.on('will-navigate', refuse);
  contents.on('will-redirect', refuse);
  contents.on('will-attach-webview', (event: { preventDefault(): void }) => event.preventDefault());
  contents.on('devtools-opened', () => contents.closeDevTools());
}

export interface LiveBrowserOptions<V extends BrowserView> {
  /** The embedded server's origin: never shown in the view. */
  serverOrigin: string;
  /** The app's main window, the only one the view is drawn in. */
  getWindow: () => HostWindow<V> | null;
  /** A new view with liveBrowserPreferences() (main: `new WebContentsView(...)`). */
  createView: () => V;
  /** The session of LIVE_BROWSER_PARTITION. */
  session: () => BrowserSession;
  /** Sends the page's state to the app (main: the `vibeeval:event:browser` event). */
  emit: (state: BrowserState) => void;
}

/** Main-frame load failure: Chromium's code, its description, the URL. -3 (aborted) is a load replaced by another. */
type FailLoadListener = (event: unknown, code: number, description: string, url: string, isMainFrame: boolean) => void;
const ABORTED = -3;

/** The one live browser of the main window: shown, moved, navigated and closed by the page's IPC calls. */
export class LiveBrowser<V extends BrowserView = BrowserView> {
  #view: V | null = null;
  #window: HostWindow<V> | null = null;
  #bounds: BrowserBounds = { x: 0, y: 0, width: 0, height: 0 };
  #error: string | undefined;
  readonly #watched = new WeakSet<HostWindow<V>>();

  constructor(private readonly options: LiveBrowserOptions<V>) {}

  /** Whether a view is open. */
  get showing(): boolean {
    return this.#view !== null;
  }

  /** Opens the view (or reuses it) over `bounds` and loads `url`; false when the URL is refused or no window is open. */
  show(url: string, bounds: BrowserBounds): boolean {
    const target = parseBrowserUrl(url, this.options.serverOrigin);
    const window = this.options.getWindow();
    if (!target || !window || window.isDestroyed()) return false;
    if (this.#view && this.#window !== window) this.hide();
    if (!this.#view) this.#open(window);
    this.setBounds(bounds);
    this.#load(target.href);
    return true;
  }

  /** Loads another address in the open view; false when refused or when nothing is shown. */
  navigate(url: string): boolean {
    const target = parseBrowserUrl(url, this.options.serverOrigin);
    if (!target || !this.#view) return false;
    this.#load(target.href);
    return true;
  }

  back(): void {
    const history = this.#contents()?.navigationHistory;
    if (history?.canGoBack()) history.goBack();
  }

  forward(): void {
    const history = this.#contents()?.navigationHistory;
    if (history?.canGoForward()) history.goForward();
  }

  reload(): void {
    this.#contents()?.reload();
  }

  /** Moves the view over the page's box (CSS pixels), cut to the window; an empty box hides it. */
  setBounds(bounds: BrowserBounds): void {
    this.#bounds = bounds;
    this.#place();
  }

  /** Removes the view and closes its page (no beforeunload prompt can keep it). */
  hide(): void {
    const view = this.#view;
    const window = this.#window;
    this.#view = null;
    this.#window = null;
    this.#error = undefined;
    if (!view) return;
    if (window && !window.isDestroyed()) window.contentView.removeChildView(view);
    if (!view.webContents.isDestroyed()) view.webContents.close();
  }

  /** The page's state as the app shows it. */
  state(): BrowserState | null {
    const contents = this.#contents();
    if (!contents) return null;
    return {
      url: contents.getURL().slice(0, 8192),
      title: contents.getTitle().slice(0, 1000),
      loading: contents.isLoading(),
      canGoBack: contents.navigationHistory.canGoBack(),
      canGoForward: contents.navigationHistory.canGoForward(),
      ...(this.#error ? { error: this.#error } : {}),
    };
  }

  #contents(): BrowserContents | null {
    const contents = this.#view?.webContents;
    return contents && !contents.isDestroyed() ? contents : null;
  }

  #open(window: HostWindow<V>): void {
    hardenBrowserSession(this.options.session());
    const view = this.options.createView();
    this.#view = view;
    this.#window = window;
    guardBrowserContents(view.webContents, this.options.serverOrigin, (url) => this.#load(url));
    this.#reportChanges(view);
    window.contentView.addChildView(view);
    this.#watch(window);
  }

  /** The view goes when the window closes, reloads or leaves its page, or when its renderer is gone. */
  #watch(window: HostWindow<V>): void {
    if (this.#watched.has(window)) return;
    this.#watched.add(window);
    const hideHere = () => {
      if (this.#window === window) this.hide();
    };
    window.on('closed', hideHere);
    window.on('resize', () => {
      if (this.#window === window) this.#place();
    });
    window.webContents.on('did-start-navigation', (details: { isMainFrame: boolean; isSameDocument: boolean }) => {
      if (details.isMainFrame && !details.isSameDocument) hideHere();
    });
    window.webContents.on('render-process-gone', hideHere);
  }

  #reportChanges(view: V): void {
    const contents = view.webContents;
    const emit = () => {
      if (this.#view !== view) return;
      const state = this.state();
      if (state) this.options.emit(state);
    };
    for (const event of ['did-navigate', 'did-navigate-in-page', 'page-title-updated', 'did-stop-loading']) contents.on(event, emit);
    contents.on('did-start-loading', () => {
      this.#error = undefined;
      emit();
    });
    const onFail: FailLoadListener = (_event, code, description, url, isMainFrame) => {
      if (!isMainFrame || code === ABORTED) return;
      this.#error = loadErrorMessage(code, description, url);
      emit();
    };
    contents.on('did-fail-load', onFail);
  }

  #place(): void {
    const view = this.#view;
    const window = this.#window;
    if (!view || !window || window.isDestroyed()) return;
    const [width = 0, height = 0] = window.getContentSize();
    const rect = clampBounds(this.#bounds, window.webContents.getZoomFactor(), { width, height });
    view.setBounds(rect);
    view.setVisible(rect.width > 0 && rect.height > 0);
  }

  #load(url: string): void {
    const contents = this.#contents();
    if (!contents) return;
    this.#error = undefined;
    // A failed load is reported by did-fail-load (with a clear message); the promise only repeats it.
    contents.loadURL(url).catch(() => undefined);
  }
}

/** The page's `vibeeval:browser:*` calls, answered by `browser` (arguments already checked by the registrar). */
export function registerLiveBrowserHandlers<V extends BrowserView>(ipc: IpcRegistrar, browser: LiveBrowser<V>): void {
  ipc.handle('vibeeval:browser:show', ({ url, bounds }) => browser.show(url, bounds));
  ipc.handle('vibeeval:browser:navigate', ({ url }) => browser.navigate(url));
  ipc.handle('vibeeval:browser:back', () => browser.back());
  ipc.handle('vibeeval:browser:forward', () => browser.forward());
  ipc.handle('vibeeval:browser:reload', () => browser.reload());
  ipc.handle('vibeeval:browser:set-bounds', (bounds) => browser.setBounds(bounds));
  ipc.handle('vibeeval:browser:hide', () => browser.hide());
}
