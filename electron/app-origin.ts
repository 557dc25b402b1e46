/**
 * The renderer's own origin. The built renderer is served from the privileged `app` scheme with a fixed
 * host, so every check in main (navigation, IPC sender, permissions) compares against one origin.
 */
export const APP_SCHEME = 'app';
export const APP_HOST = 'vibeeval';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
/** What the main window loads. */
export const APP_ENTRY_URL = `${APP_ORIGIN}/`;

/** Whether `raw` parses as a URL on app://vibeeval (the only place our window may be). */
export function isAppUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return url.protocol === `${APP_SCHEME}:` && url.host.toLowerCase() === APP_HOST && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}
