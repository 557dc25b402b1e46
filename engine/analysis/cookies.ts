// Set-Cookie parsing and the cookies a site sets, over HTTP (every crawled response and redirect hop)
// and from scripts (seen by the headless browser).
import { getDomain, getPublicSuffix } from 'tldts';
import { headerAll } from '../http/headers';
import type { Evidence, Exchange, HeaderList, Site } from '../types';

export interface ParsedCookie {
  name: string;
  value: string;
  secure: boolean;
  httpOnly: boolean;
  /** The SameSite attribute as written (undefined when absent; '' when present without a value). */
  sameSite?: string;
  /** The Domain attribute, lower-cased, leading dot removed. */
  domain?: string;
  path?: string;
}

/** Parses one Set-Cookie header value (RFC 6265 §5.2; unknown attributes are ignored). */
export function parseSetCookie(header: string): ParsedCookie | undefined {
  const [pair = '', ...attributes] = header.split(';');
  const eq = pair.indexOf('=');
  const name = (eq === -1 ? '' : pair.slice(0, eq)).trim();
  const value = (eq === -1 ? pair : pair.slice(eq + 1)).trim();
  if (!name && !value) return undefined;
  const cookie: ParsedCookie = { name, value, secure: false, httpOnly: false };
  for (const attribute of attributes) {
    const at = attribute.indexOf('=');
    const key = (at === -1 ? attribute : attribute.slice(0, at)).trim().toLowerCase();
    const val = at === -1 ? '' : attribute.slice(at + 1).trim();
    if (key === 'secure') cookie.secure = true;
    else if (key === 'httponly') cookie.httpOnly = true;
    else if (key === 'samesite') cookie.sameSite = val;
    else if (key === 'domain' && val) cookie.domain = val.replace(/^\./, '').toLowerCase();
    else if (key === 'path') cookie.path = val;
  }
  return cookie;
}

export interface ObservedCookie extends ParsedCookie {
  /** The URL whose response set it (the start page for cookies set by scripts). */
  url: string;
  /** How it was set. */
  via: 'header' | 'script';
  /** The Set-Cookie header value as served (header cookies only). */
  header?: string;
  /** The response that carried the header (header cookies only), for evidence. */
  exchange?: Exchange;
  /** The response headers of that hop (a redirect hop's own headers). */
  headers?: HeaderList;
}

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return '';
  }
}

/** True when a cookie for `domain` would be sent to `host` (RFC 6265 domain-match). */
export function domainMatches(host: string, domain: string): boolean {
  const clean = domain.replace(/^\./, '').toLowerCase();
  return host === clean || host.endsWith(`.${clean}`);
}

/**
 * Every cookie the site sets: Set-Cookie headers of the start page and its redirect hops, of every crawled
 * page, then cookies set by scripts (the browser's cookies for this site that no header set). The first
 * sighting of a name+domain+path wins.
 */
export function collectCookies(site: Pick<Site, 'root' | 'pages' | 'rendering' | 'finalUrl'>): ObservedCookie[] {
  const out: ObservedCookie[] = [];
  const seen = new Set<string>();
  const add = (cookie: ObservedCookie) => {
    const id = `${cookie.name}\n${cookie.domain ?? hostOf(cookie.url)}\n${cookie.path ?? ''}`;
    if (seen.has(id)) return;
    seen.add(id);
    out.push(cookie);
  };
  const fromExchange = (exchange: Exchange) => {
    for (const hop of exchange.redirects) {
      for (const header of headerAll(hop.headers, 'set-cookie')) {
        const cookie = parseSetCookie(header);
        if (cookie) add({ ...cookie, url: hop.url, via: 'header', header, exchange, headers: hop.headers });
      }
    }
    for (const header of headerAll(exchange.headers, 'set-cookie')) {
      const cookie = parseSetCookie(header);
      if (cookie) add({ ...cookie, url: exchange.finalUrl, via: 'header', header, exchange, headers: exchange.headers });
    }
  };
  fromExchange(site.root);
  for (const page of site.pages) if (page.exchange !== site.root) fromExchange(page.exchange);

  const host = hostOf(site.finalUrl);
  const headerNames = new Set(out.map((cookie) => cookie.name));
  for (const cookie of site.rendering.cookies) {
    // The browser's jar also holds cookies the headers set (HttpOnly included) and third parties' cookies.
    if (headerNames.has(cookie.name) || !domainMatches(host, cookie.domain)) continue;
    const domain = cookie.domain.startsWith('.') ? cookie.domain.slice(1).toLowerCase() : undefined;
    add({
      name: cookie.name,
      value: cookie.value,
      secure: cookie.secure,
      httpOnly: cookie.httpOnly,
      sameSite: cookie.sameSite,
      domain,
      path: cookie.path,
      url: site.finalUrl,
      via: 'script',
    });
  }
  return out;
}

/** Analytics and advertising cookies: set by third-party scripts, never a session. */
const TRACKING = /^(_ga|_gid|_gcl|__utm|_hj|_fbp|_fbc|ajs_|mp_|amp_|_clck|_clsk|__stripe_|_uet|_pk_|__hs|hubspotutk|_tt_|_scid|_rdt|_li|_pin|intercom-)/i;

const SESSION_NAMES = [
  /sess/i, // session, sess, PHPSESSID, JSESSIONID, ASP.NET_SessionId, laravel_session, connect.sid is below
  /(^|[^a-z])sid($|[^a-z])/i,
  /^connect\.sid$/i,
  /auth/i,
  /token/i,
  /jwt/i,
  /csrf|xsrf/i,
  /login/i,
  /remember/i,
  /^sb-.+-auth-token/i,
  /^__(host|secure)-/i,
  /^(id|uid|user_?id)$/i,
];

/** True for cookies that identify or authenticate a user, by name (session, sid, auth, token, jwt, csrf, __Host- …). */
export function isSessionCookie(name: string): boolean {
  if (TRACKING.test(name)) return false;
  return SESSION_NAMES.some((pattern) => pattern.test(name));
}

/** True for cookies that are tracking/analytics by name. */
export function isTrackingCookie(name: string): boolean {
  return TRACKING.test(name);
}

/** True for anti-CSRF tokens, which are readable by design (double-submit pattern). */
export function isCsrfCookie(name: string): boolean {
  return /csrf|xsrf/i.test(name);
}

/** A cookie value with all but its first 4 characters hidden. */
export function maskValue(value: string): string {
  return value.length <= 4 ? value : `${value.slice(0, 4)}…`;
}

/** The Set-Cookie header (or a reconstruction for cookies set by scripts) with the value masked. */
export function maskedCookie(cookie: ObservedCookie): string {
  if (cookie.header) {
    const eq = cookie.header.indexOf('=');
    const semi = cookie.header.indexOf(';');
    const end = semi === -1 ? cookie.header.length : semi;
    if (eq !== -1 && eq < end) return `${cookie.header.slice(0, eq + 1)}${maskValue(cookie.value)}${cookie.header.slice(end)}`;
    return cookie.header;
  }
  const parts = [`${cookie.name}=${maskValue(cookie.value)}`];
  if (cookie.domain) parts.push(`Domain=${cookie.domain}`);
  if (cookie.path) parts.push(`Path=${cookie.path}`);
  if (cookie.secure) parts.push('Secure');
  if (cookie.httpOnly) parts.push('HttpOnly');
  if (cookie.sameSite) parts.push(`SameSite=${cookie.sameSite}`);
  return parts.join('; ');
}

export type DomainScope = 'host' | 'subdomain' | 'registrable-domain' | 'public-suffix' | 'foreign';

/**
 * How far a Domain attribute widens a cookie beyond the host that set it: 'host' (no attribute or the host
 * itself), 'subdomain' (a parent below the registrable domain), 'registrable-domain' (every subdomain of the
 * site), 'public-suffix' (a suffix like vercel.app or co.uk: browsers reject it), 'foreign' (not a parent).
 */
export function domainScope(host: string, domain: string | undefined): DomainScope {
  if (!domain || domain === host) return 'host';
  if (!host.endsWith(`.${domain}`)) return 'foreign';
  const options = { allowPrivateDomains: true };
  if (getPublicSuffix(host, options) === domain || getPublicSuffix(domain, options) === domain) return 'public-suffix';
  if (getDomain(host, options) === domain) return 'registrable-domain';
  return 'subdomain';
}

/** Evidence for a cookie: the response that set it (value masked), or the browser's jar for script cookies. */
export function cookieEvidence(cookie: ObservedCookie): Evidence {
  const masked = maskedCookie(cookie);
  if (cookie.via === 'script' || !cookie.exchange) {
    return { request: `GET ${cookie.url}`, response: `(set by a script; seen in the browser's cookie jar)\n${masked}`, match: masked };
  }
  const status =
    cookie.headers === cookie.exchange.headers
      ? cookie.exchange.status
      : (cookie.exchange.redirects.find((hop) => hop.headers === cookie.headers)?.status ?? cookie.exchange.status);
  return { request: `GET ${cookie.url}`, response: `HTTP ${status}\nset-cookie: ${masked}`, match: masked };
}
