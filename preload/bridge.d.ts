import type { DesktopSettings, ServerChoice, SetServerResult } from '../common/desktop-settings';
import type { AppInfo, BrowserBounds, IpcEventChannel, IpcEventPayload, Notice } from '../common/ipc';

/** What the preload script exposes to the renderer as `window.vibeeval` (desktop mode only). */
export interface DesktopBridge {
  readonly kind: 'desktop';
  app: {
    info(): Promise<AppInfo>;
    /** Restarts the app (a new server choice applies at start). */
    relaunch(): Promise<void>;
    /** Notices main kept before the page listened; emptied by the call. */
    takeNotices(): Promise<Notice[]>;
  };
  /** The desktop app's own settings (server choice, desktop notifications). */
  settings: {
    get(): Promise<DesktopSettings>;
    setNotifications(enabled: boolean): Promise<void>;
    /** Saves the server for the next start; a team server only once its /health answers. */
    setServer(choice: ServerChoice): Promise<SetServerResult>;
  };
  /** The OS keychain, shaped as supabase-js's storage adapter. */
  vault: {
    getItem(key: string): Promise<string | null>;
    setItem(key: string, value: string): Promise<void>;
    removeItem(key: string): Promise<void>;
  };
  /** Opens an http(s) URL in the system browser; false when the URL was refused. */
  shell: { openExternal(url: string): Promise<boolean> };
  /** Tells main which workspace the app shows (null = personal), so desktop notifications follow the switcher. */
  workspace: { select(id: string | null): Promise<void> };
  /** Sign-in with Google in the system browser; the session or the error arrives as a 'vibeeval:event:auth' event. */
  auth: { startGoogle(): Promise<boolean> };
  /** Opens a report preview of the embedded server in a native window; false when the URL was refused. */
  reports: { open(url: string): Promise<boolean> };
  /**
   * The live browser (Live Browser Demo): a site in a native view drawn over `bounds` (CSS pixels of the page).
   * show and navigate answer false when the address is refused; its state arrives as `vibeeval:event:browser`.
   */
  browser: {
    show(url: string, bounds: BrowserBounds): Promise<boolean>;
    navigate(url: string): Promise<boolean>;
    back(): Promise<void>;
    forward(): Promise<void>;
    reload(): Promise<void>;
    setBounds(bounds: BrowserBounds): Promise<void>;
    hide(): Promise<void>;
  };
  /** Events from main (common/ipc.ts `ipcEventContract`), checked before the listener runs; returns unsubscribe. */
  events: {
    subscribe<C extends IpcEventChannel>(channel: C, listener: (payload: IpcEventPayload<C>) => void): () => void;
  };
}

declare global {
  interface Window {
    vibeeval?: DesktopBridge;
  }
}
