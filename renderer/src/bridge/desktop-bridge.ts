import type { DesktopBridge } from '../../../preload/bridge';
import type { Bridge } from './bridge';

/** The Electron preload's `window.vibeeval`: the session lives in the OS keychain, never in localStorage. */
export function createDesktopBridge(desktop: DesktopBridge): Bridge {
  let origin: Promise<string> | undefined;
  return {
    kind: 'desktop',
    serverOrigin() {
      origin ??= desktop.app.info().then((info) => info.serverOrigin.replace(/\/+$/, ''));
      // A failed call must not be cached: the boot screen offers a retry.
      origin.catch(() => (origin = undefined));
      return origin;
    },
    authStorage: {
      getItem: (key) => desktop.vault.getItem(key),
      setItem: (key, value) => desktop.vault.setItem(key, value),
      removeItem: (key) => desktop.vault.removeItem(key),
    },
    openExternal: (url) => desktop.shell.openExternal(url),
    // Main checks the URL is on the embedded server's origin before it opens a window.
    openReport: (url) => desktop.reports.open(url),
    startGoogleSignIn: () => desktop.auth.startGoogle(),
    subscribe: (channel, listener) => desktop.events.subscribe(channel, listener),
    // Main checks every address again (http(s) only, never the embedded server) and clamps the bounds.
    liveBrowser: desktop.browser,
    takeNotices: () => desktop.app.takeNotices(),
    showWorkspace: (workspaceId) => desktop.workspace.select(workspaceId),
    desktopSettings: {
      get: () => desktop.settings.get(),
      setNotifications: (enabled) => desktop.settings.setNotifications(enabled),
      setServer: (choice) => desktop.settings.setServer(choice),
      relaunch: () => desktop.app.relaunch(),
    },
  };
}
