// One reading of a site's address for every place that takes one (the dashboard's project forms, the public API's
// POST /v1/scans, the landing page's scan form), so the same site is the same project wherever it was typed.

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/** 'example.com' → 'https://example.com'; a value that already has a scheme is kept as typed. */
export function withScheme(input: string): string {
  const value = input.trim();
  return SCHEME.test(value) ? value : `https://${value}`;
}

/** A host a person means by a website: dotted, an IP address or localhost. */
const looksLikeWebsite = (host: string) => host.includes('.') || host.startsWith('[') || host === 'localhost';

/**
 * The address as the product stores and compares it, or null when it is not an http(s) site: `https://` added when
 * no scheme was typed, the host in lower case, no default port, no fragment, no trailing slash after a path
 * ('example.com', 'HTTPS://Example.com:443' and 'https://example.com/#top' are all 'https://example.com/';
 * 'example.com/shop/' is 'https://example.com/shop'). Without a typed scheme
 * the host must look like a website ('nope' is not a site; 'http://intranet' is one a team server may scan). An
 * address with a user name or password in it is refused.
 */
export function normaliseSiteUrl(input: string): string | null {
  const typed = input.trim();
  const value = withScheme(typed);
  if (!URL.canParse(value)) return null;
  const url = new URL(value);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  // A password in the address would show in every list and report ('mailto:a@b.c' would read as one).
  if (url.username || url.password) return null;
  const host = url.hostname;
  if (!host || /\.$|^\.|\.\./.test(host)) return null;
  if (!SCHEME.test(typed) && !looksLikeWebsite(host)) return null;
  url.hash = '';
  // The root keeps its slash, as URL writes it (and as the landing page always stored it).
  let path = url.pathname;
  while (path.endsWith('/')) path = path.slice(0, -1);
  url.pathname = path || '/';
  return url.href;
}

/** The forms an address may have been stored in before addresses were normalised: the root with and without its slash. */
export function siteUrlVariants(normalised: string): string[] {
  const url = new URL(normalised);
  return url.pathname === '/' && !url.search ? [normalised, normalised.slice(0, -1)] : [normalised];
}
