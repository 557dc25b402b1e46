import type { DesktopSettings, ServerChoice, SetServerResult } from '@common/desktop-settings';
import type { BrowserBounds, IpcEventChannel, IpcEventPayload, Notice } from '@common/ipc';

/**
 * What the rest of the renderer needs from its host: the server's origin, somewhere to keep the auth session,
 * and a way to open external links. Desktop (Electron preload) and web implement it differently.
 */
export interface Bridge {
  readonly kind: 'desktop' | 'web';
  /** Origin of the server that owns the API, auth and `/app-config`, e.g. http://127.0.0.1:8787 */
  serverOrigin(): Promise<string>;
  /** Where the signed-in session is kept, shaped as supabase-js's storage adapter. */
  readonly authStorage: AuthStorage;
  /** Opens an http(s) URL outside the app; false when the URL was refused. */
  openExternal(url: string): Promise<boolean>;
  /**
   * Opens a report preview page of the server (/report-preview?signed_url=...): a new tab on the web, a native
   * window in the desktop app. False when the URL was refused.
   */
  openReport(url: string): Promise<boolean>;
  /**
   * Desktop only: starts sign-in with Google in the system browser; the outcome arrives as a 'vibeeval:event:auth'
   * event. False when it could not start, and always on the web, where supabase-js signs in from the page.
   */
  startGoogleSignIn(): Promise<boolean>;
  /**
   * Listens to an event of the desktop app's main process (menu commands, notification clicks, sign-in
   * results); the web has none, so there it never fires. Returns the unsubscribe function.
   */
  subscribe<C extends IpcEventChannel>(channel: C, listener: (payload: IpcEventPayload<C>) => void): () => void;
  /**
   * The desktop app's live browser: a site in a native view that main draws over a box of the page (its state
   * arrives as `vibeeval:event:browser`). Null on the web, where the Live Browser Demo uses an iframe.
   */
  readonly liveBrowser: LiveBrowserHost | null;
  /** One-time notices the desktop app kept for the page (emptied by the call); none on the web. */
  takeNotices(): Promise<Notice[]>;
  /** The desktop app's own settings; null on the web, which has none. */
  readonly desktopSettings: DesktopSettingsApi | null;
  /**
   * Tells the desktop app which workspace the page shows (null = the personal one), so its notifications and
   * their live stream follow the switcher; nothing to tell on the web.
   */
  showWorkspace(workspaceId: string | null): Promise<void>;
}

/** The native live browser: show and navigate answer false when main refuses the address. */
export interface LiveBrowserHost {
  show(url: string, bounds: BrowserBounds): Promise<boolean>;
  navigate(url: string): Promise<boolean>;
  back(): Promise<void>;
  forward(): Promise<void>;
  reload(): Promise<void>;
  setBounds(bounds: BrowserBounds): Promise<void>;
  hide(): Promise<void>;
}

/** The desktop app's settings: desktop notifications and the server it uses (applied by a restart). */
export interface DesktopSettingsApi {
  get(): Promise<DesktopSettings>;
  setNotifications(enabled: boolean): Promise<void>;
  /** Saves the server for the next start; a team server only once its /health answers as vibeeval's. */
  setServer(choice: ServerChoice): Promise<SetServerResult>;
  relaunch(): Promise<void>;
}

/** supabase-js accepts a synchronous or an asynchronous storage; the keychain is asynchronous. */
export interface AuthStorage {
  getItem(key: string): string | null | Promise<string | null>;
  setItem(key: string, value: string): void | Promise<void>;
  removeItem(key: string): void | Promise<void>;
}

/** True for absolute http(s) URLs, the only ones we hand to a browser or the OS. */
export function isWebUrl(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const { protocol } = new URL(url);
  return protocol === 'http:' || protocol === 'https:';
}
