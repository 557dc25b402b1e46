import { isWebUrl, type Bridge } from './bridge';

/** A plain browser: the server is the page's own origin and the session lives in localStorage. */
export function createWebBridge(): Bridge {
  return {
    kind: 'web',
    serverOrigin: async () => window.location.origin,
    authStorage: {
      getItem: (key) => window.localStorage.getItem(key),
      setItem: (key, value) => window.localStorage.setItem(key, value),
      removeItem: (key) => window.localStorage.removeItem(key),
    },
    async openExternal(url) {
      if (!isWebUrl(url)) return false;
      // noopener: the opened page gets no handle on this window (and window.open then returns null).
      window.open(url, '_blank', 'noopener,noreferrer');
      return true;
    },
    async openReport(url) {
      if (!isWebUrl(url)) return false;
      // The preview is on our own server: keep the referrer, but give the tab no handle on this window.
      window.open(url, '_blank', 'noopener');
      return true;
    },
    startGoogleSignIn: async () => false,
    // The main process's events exist only in the desktop app.
    subscribe: () => () => undefined,
    liveBrowser: null,
    takeNotices: async () => [],
    showWorkspace: async () => undefined,
    desktopSettings: null,
  };
}
