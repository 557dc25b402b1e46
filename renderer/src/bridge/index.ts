import type { Bridge } from './bridge';
import { createDesktopBridge } from './desktop-bridge';
import { createWebBridge } from './web-bridge';

export type { Bridge, DesktopSettingsApi, LiveBrowserHost } from './bridge';

/** The desktop bridge when the Electron preload exposed `window.vibeeval`, else the web one. */
export function createBridge(): Bridge {
  return window.vibeeval ? createDesktopBridge(window.vibeeval) : createWebBridge();
}
