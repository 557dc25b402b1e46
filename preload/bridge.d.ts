import type { AppInfo, IpcEventChannel, IpcEventPayload } from '../common/ipc';

/** What the preload script exposes to the renderer as `window.vibeeval` (desktop mode only). */
export interface DesktopBridge {
  readonly kind: 'desktop';
  app: { info(): Promise<AppInfo> };
  /** The OS keychain, shaped as supabase-js's storage adapter. */
  vault: {
    getItem(key: string): Promise<string | null>;
    setItem(key: string, value: string): Promise<void>;
    removeItem(key: string): Promise<void>;
  };
  /** Opens an http(s) URL in the system browser; false when the URL was refused. */
  shell: { openExternal(url: string): Promise<boolean> };
  /** Sign-in with Google in the system browser; the session or the error arrives as a 'vibeeval:event:auth' event. */
  auth: { startGoogle(): Promise<boolean> };
  /** Opens a report preview of the embedded server in a native window; false when the URL was refused. */
  reports: { open(url: string): Promise<boolean> };
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
