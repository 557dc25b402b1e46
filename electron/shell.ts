import { shell } from 'electron';

const MAX_EXTERNAL_URL_LENGTH = 2048;

/**
 * The URL to hand to the system browser, or null when `raw` is not an absolute http(s) URL. Parsing
 * first (electron/fiddle's `safelyOpenWebURL`) keeps `file:`, `javascript:`, custom protocol handlers
 * and OS-specific schemes (`ms-msdt:`, `smb:`) from ever reaching `shell.openExternal`.
 */
export function parseWebUrl(raw: string): URL | null {
  if (typeof raw !== 'string' || raw.length > MAX_EXTERNAL_URL_LENGTH) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.hostname === '') return null;
  return url;
}

/** Opens an http(s) URL in the system browser; false (and nothing opened) for anything else. */
export async function openExternalSafely(raw: string): Promise<boolean> {
  const url = parseWebUrl(raw);
  if (!url) return false;
  try {
    // The normalised href, not the raw string: what was checked is what is opened.
    await shell.openExternal(url.href);
    return true;
  } catch (error) {
    console.error(`vibeeval: could not open ${url.origin} in the browser: ${(error as Error).message}`);
    return false;
  }
}
