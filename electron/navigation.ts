import type { Session, WebContents } from 'electron';
import { isAppUrl } from './app-origin';
import { openExternalSafely, parseExternalUrl } from './shell';

/**
 * Permissions the renderer may be granted, and only on app://vibeeval: desktop notifications (scan done,
 * page changed), and writing to the clipboard, which the "copy API key" buttons need (sanitized write
 * only; reading the clipboard stays denied).
 */
const GRANTED_PERMISSIONS: ReadonlySet<string> = new Set(['notifications', 'clipboard-sanitized-write']);

/** Whether the renderer at `requestingUrl` gets `permission`. */
export function isPermissionGranted(permission: string, requestingUrl: string): boolean {
  return GRANTED_PERMISSIONS.has(permission) && isAppUrl(requestingUrl);
}

/**
 * Keeps a web contents on app://vibeeval: every `window.open` is denied (http(s) targets open in the
 * system browser instead, mailto links in the mail app), and navigations or redirects that would leave the app are cancelled.
 * Applied to every web contents the app creates (`web-contents-created`), not only the main window.
 */
export function guardWebContents(contents: WebContents, openExternal = openExternalSafely): void {
  contents.setWindowOpenHandler(({ url }) => {
    if (parseExternalUrl(url)) void openExternal(url);
    return { action: 'deny' };
  });

  contents.on('will-navigate', (event) => {
    if (isAppUrl(event.url)) return;
    event.preventDefault();
    // A plain <a href="https://..."> without target=_blank: the user meant to open the page.
    if (event.isMainFrame && parseExternalUrl(event.url)) void openExternal(event.url);
  });

  contents.on('will-redirect', (event) => {
    if (!isAppUrl(event.url)) event.preventDefault();
  });

  // No <webview> anywhere (webviewTag is off too); refuse one even if a page tried.
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

/** Denies every permission request and check except those in GRANTED_PERMISSIONS from the app itself. */
export function hardenSession(session: Session): void {
  session.setPermissionRequestHandler((_contents, permission, callback, details) => {
    callback(isPermissionGranted(permission, details.requestingUrl));
  });
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin) => isPermissionGranted(permission, requestingOrigin));
}
