import { z } from 'zod';

// The Live Browser Demo on /vibe-loop: the address bar's rules (shared by the page, the desktop main process and
// the server's framing check) and the framing check's answer.

/** Longest address the live browser accepts. */
export const MAX_BROWSER_URL_LENGTH = 2048;

/** The framing check of the web mode: GET FRAMING_CHECK_PATH?url=... */
export const FRAMING_CHECK_PATH = '/v2/live-browser/framing';

export const BROWSER_URL_MESSAGES = {
  empty: 'Enter the address of a website, e.g. example.com.',
  tooLong: `The address cannot exceed ${MAX_BROWSER_URL_LENGTH} characters.`,
  invalid: 'This is not a website address. Enter one such as example.com or https://example.com/page.',
  scheme: 'Only http and https addresses can be shown.',
  credentials: 'Addresses with a user name or password cannot be shown.',
  ownServer: 'The vibeeval server itself cannot be shown in the live browser.',
} as const;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Whether `url` is the embedded server (or the same port on another loopback name: localhost and 127.0.0.1
 * reach the same server). The live browser never shows it: its pages are the app's, not a site under test.
 */
export function isOwnServer(url: URL, serverOrigin: string): boolean {
  let server: URL;
  try {
    server = new URL(serverOrigin);
  } catch {
    return false;
  }
  if (url.origin === server.origin) return true;
  const port = (u: URL) => u.port || (u.protocol === 'https:' ? '443' : '80');
  return LOOPBACK_HOSTS.has(server.hostname) && LOOPBACK_HOSTS.has(url.hostname) && port(url) === port(server);
}

export type AddressCheck = { ok: true; url: string } | { ok: false; message: string };

/**
 * What the user typed in the address bar, as an absolute http(s) URL: a bare host (example.com/page) gets
 * https://; other schemes, credentials, spaces in the host, and the vibeeval server itself are refused.
 */
export function parseBrowserAddress(input: string, serverOrigin?: string): AddressCheck {
  const value = input.trim();
  if (value === '') return { ok: false, message: BROWSER_URL_MESSAGES.empty };
  if (value.length > MAX_BROWSER_URL_LENGTH) return { ok: false, message: BROWSER_URL_MESSAGES.tooLong };
  const hasScheme = /^[a-z][a-z0-9+.-]*:/i.test(value) && !/^[^:/]+:\d+(\/|$)/.test(value);
  if (hasScheme && !/^https?:\/\//i.test(value)) return { ok: false, message: BROWSER_URL_MESSAGES.scheme };
  let url: URL;
  try {
    url = new URL(hasScheme ? value : `https://${value}`);
  } catch {
    return { ok: false, message: BROWSER_URL_MESSAGES.invalid };
  }
  // A host needs a dot (example.com), or is localhost or an IP literal; "hello world" and "foo" are not sites.
  const host = url.hostname;
  const hostLooksReal = host.includes('.') || host === 'localhost' || host.startsWith('[');
  if (!hostLooksReal || /\s/.test(value) || host.endsWith('.') || host.startsWith('.')) return { ok: false, message: BROWSER_URL_MESSAGES.invalid };
  if (url.username !== '' || url.password !== '') return { ok: false, message: BROWSER_URL_MESSAGES.credentials };
  if (serverOrigin && isOwnServer(url, serverOrigin)) return { ok: false, message: BROWSER_URL_MESSAGES.ownServer };
  if (url.href.length > MAX_BROWSER_URL_LENGTH) return { ok: false, message: BROWSER_URL_MESSAGES.tooLong };
  return { ok: true, url: url.href };
}

/** An absolute http(s) URL without credentials, at most MAX_BROWSER_URL_LENGTH long (IPC and query strings). */
export const browserUrlSchema = z
  .string()
  .max(MAX_BROWSER_URL_LENGTH)
  .refine((value) => {
    if (!URL.canParse(value)) return false;
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' && url.username === '' && url.password === '';
  }, 'must be an http(s) URL without credentials');

/** GET FRAMING_CHECK_PATH?url=... */
export const framingCheckQuerySchema = z.object({ url: browserUrlSchema });

/** Whether the page at `finalUrl` (after redirects) lets another site show it in a frame, and why not. */
export const framingCheckSchema = z.object({
  allowed: z.boolean(),
  reason: z.string().optional(),
  finalUrl: z.string(),
});
export type FramingCheck = z.infer<typeof framingCheckSchema>;
