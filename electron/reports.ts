import { BrowserWindow, session, type BrowserWindowConstructorOptions, type Session, type WebContents } from 'electron';
import { ISOLATED_WEB_PREFERENCES } from './web-preferences';
import { MAX_REPORT_URL_LENGTH } from '../common/ipc';
import { openExternalSafely, parseWebUrl } from './shell';

/**
 * Report windows: the server's report preview (/report-preview?signed_url=...) in a native window of its own.
 * The page is the embedded server's, not ours, so the window gets nothing of the app: no preload (no bridge),
 * a sandboxed renderer, its own in-memory session (no app storage, every permission denied), and navigation
 * kept on the server's origin. Links elsewhere go to the system browser after parsing as http(s).
 */

/** In-memory (no `persist:` prefix): nothing the report page stores outlives the app. */
export const REPORT_PARTITION = 'vibeeval-reports';

/** `raw` as a URL when it is http(s) on `serverOrigin` without credentials, else null. */
export function parseReportUrl(raw: unknown, serverOrigin: string): URL | null {
  if (typeof raw !== 'string' || raw.length > MAX_REPORT_URL_LENGTH) return null;
  let url: URL;
  let server: URL;
  try {
    url = new URL(raw);
    server = new URL(serverOrigin);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username !== '' || url.password !== '') return null;
  return url.origin === server.origin ? url : null;
}

/** The report window: sandboxed, isolated, no Node, no preload, its own session. */
export function reportWindowOptions(): BrowserWindowConstructorOptions {
  return {
    width: 1100,
    height: 820,
    minWidth: 400,
    minHeight: 300,
    show: false,
    title: 'vibeeval report',
    autoHideMenuBar: true,
    backgroundColor: '#ffffff',
    webPreferences: {
      // No `preload`: the report page must not reach the bridge.
      ...ISOLATED_WEB_PREFERENCES,
      spellcheck: false,
      partition: REPORT_PARTITION,
    },
  };
}

type OpenExternal = (url: string) => Promise<boolean>;

/**
 * Keeps a report window's contents on the server's origin: `window.open` is always denied (http(s) targets open
 * in the system browser), navigations and redirects elsewhere are cancelled, and a plain link to another site
 * opens in the system browser. The app-wide guard (navigation.ts, on every web contents) may have cancelled
 * a navigation first; then it has also dealt with the link, and this guard does nothing more.
 */
export function guardReportContents(contents: WebContents, serverOrigin: string, openExternal: OpenExternal = openExternalSafely): void {
  contents.setWindowOpenHandler(({ url }) => {
    if (parseWebUrl(url)) void openExternal(url);
    return { action: 'deny' };
  });

  contents.on('will-navigate', (event) => {
    if (event.defaultPrevented || parseReportUrl(event.url, serverOrigin)) return;
    event.preventDefault();
    if (event.isMainFrame && parseWebUrl(event.url)) void openExternal(event.url);
  });

  contents.on('will-redirect', (event) => {
    if (!parseReportUrl(event.url, serverOrigin)) event.preventDefault();
  });

  contents.on('will-attach-webview', (event) => event.preventDefault());
}

const hardenedSessions = new WeakSet<Session>();

/** The report session asks for nothing: camera, notifications, clipboard... all denied. */
export function denyAllPermissions(reportSession: Session): void {
  if (hardenedSessions.has(reportSession)) return;
  hardenedSessions.add(reportSession);
  reportSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  reportSession.setPermissionCheckHandler(() => false);
}

export interface ReportOpenerOptions {
  /** The embedded server's origin: the only one a report window may show. */
  serverOrigin: string;
  openExternal?: OpenExternal;
  /** Gives a new report window its actions (menu: Save as PDF, Open in Browser); see report-menu.ts. */
  attachActions?: (window: BrowserWindow, reportUrl: string) => void;
}

/**
 * The `vibeeval:reports:open` handler: opens (or brings to the front) the window for a report URL on the
 * server's origin. Anything else is refused with false and opens nothing.
 */
export function createReportOpener(options: ReportOpenerOptions): (raw: string) => Promise<boolean> {
  const { serverOrigin, openExternal = openExternalSafely } = options;
  const windows = new Map<string, BrowserWindow>();

  return async (raw) => {
    const url = parseReportUrl(raw, serverOrigin);
    if (!url) return false;

    const existing = windows.get(url.href);
    if (existing && !existing.isDestroyed()) {
      if (existing.isMinimized()) existing.restore();
      existing.show();
      existing.focus();
      return true;
    }

    denyAllPermissions(session.fromPartition(REPORT_PARTITION));
    const window = new BrowserWindow(reportWindowOptions());
    guardReportContents(window.webContents, serverOrigin, openExternal);
    windows.set(url.href, window);
    options.attachActions?.(window, url.href);
    window.once('ready-to-show', () => window.show());
    window.on('closed', () => {
      if (windows.get(url.href) === window) windows.delete(url.href);
    });
    // Not awaited: the renderer's call returns once the window exists, not once the report has loaded.
    window.loadURL(url.href).catch((error: unknown) => {
      console.error(`vibeeval: could not load the report: ${(error as Error).message}`);
      if (!window.isDestroyed() && !window.isVisible()) window.show();
    });
    return true;
  };
}
