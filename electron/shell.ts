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

/**
 * A `mailto:` URL to one plain address (with an optional subject or body), or null. The public pages' contact,
 * press and affiliate links are mailto links, which open in the user's mail app.
 */
export function parseMailtoUrl(raw: string): URL | null {
  if (typeof raw !== 'string' || raw.length > MAX_EXTERNAL_URL_LENGTH) return null;
  if (!URL.canParse(raw)) return null;
  const url = new URL(raw);
  if (url.protocol !== 'mailto:') return null;
  let address: string;
  try {
    address = decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
  // One address, no list separators or whitespace that a mail app might read as more recipients or headers.
  if (!/^[^\s@,;<>"]+@[^\s@,;<>"]+\.[^\s@,;<>"]+$/.test(address)) return null;
  const allowed = new Set(['subject', 'body']);
  for (const key of url.searchParams.keys()) if (!allowed.has(key.toLowerCase())) return null;
  return url;
}

/** What may leave the app for the OS: an http(s) page (system browser) or a mailto link (mail app). */
export function parseExternalUrl(raw: string): URL | null {
  return parseWebUrl(raw) ?? parseMailtoUrl(raw);
}

/** Opens an http(s) URL in the system browser or a mailto link in the mail app; false (and nothing opened) for anything else. */
export async function openExternalSafely(raw: string): Promise<boolean> {
  const url = parseExternalUrl(raw);
  if (!url) return false;
  try {
    // The normalised href, not the raw string: what was checked is what is opened.
    await shell.openExternal(url.href);
    return true;
  } catch (error) {
    console.error(`vibeeval: could not open ${url.protocol === 'mailto:' ? 'a mail link' : url.origin} outside the app: ${(error as Error).message}`);
    return false;
  }
}
