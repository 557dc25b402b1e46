// The HTTP Observatory score of the start page, compatible with Mozilla's scorer (mdn/mdn-http-observatory,
// algorithm version 4): the same ten tests, result names and score modifiers, starting from 100, with
// bonuses counted only when the score without them is at least 90, on the same grade chart.
//
// Differences, all because the data is not available to a scan: the HSTS preload list is not consulted
// (results hsts-preloaded and redirection-all-redirects-preloaded never occur), cookies come from the
// start page's Set-Cookie headers (each redirect hop included) rather than a cookie jar, and several
// Content-Security-Policy headers are read as several policies instead of one comma-joined value.
import { Parser } from 'htmlparser2';
import { parse as parseDomain } from 'tldts';
import type { Grade, ObservatoryTest } from '../../common/scan';
import { parseSetCookie } from '../analysis/cookies';
import { CORS_PREFLIGHT_PREFIX, PROBE_ORIGIN } from '../analysis/cors';
import { CspSyntaxError, observatoryCsp, type ObservatoryCsp } from '../analysis/csp';
import { startPage } from '../analysis/evidence';
import { isMonitoringScript } from '../analysis/monitoring-script';
import { HTTPS_REDIRECT_PROBE_KEY, certificateInvalid, redirectRoute } from '../analysis/redirection';
import { header, headerAll } from '../http/headers';
import type { Exchange, ParsedHtml, Site } from '../types';

/** Every result the Observatory can give, with its score modifier and description. */
export const OBSERVATORY_RESULTS = {
  // content-security-policy
  'csp-implemented-with-no-unsafe-default-src-none': [10, "Content Security Policy (CSP) implemented with default-src 'none' and no 'unsafe'."],
  'csp-implemented-with-no-unsafe': [5, "Content Security Policy (CSP) implemented without 'unsafe-inline' or 'unsafe-eval'."],
  'csp-implemented-with-unsafe-inline-in-style-src-only': [
    0,
    "Content Security Policy (CSP) implemented with unsafe sources inside style-src ('unsafe-inline', data: or overly broad sources).",
  ],
  'csp-implemented-with-insecure-scheme-in-passive-content-only': [
    -10,
    'Content Security Policy (CSP) implemented, but secure site allows images or media to be loaded over HTTP.',
  ],
  'csp-implemented-with-unsafe-eval': [-10, "Content Security Policy (CSP) implemented, but allows 'unsafe-eval'."],
  'csp-implemented-with-unsafe-inline': [
    -20,
    "Content Security Policy (CSP) implemented unsafely: 'unsafe-inline' or data: inside script-src, overly broad sources in object-src or script-src, or those not restricted.",
  ],
  'csp-implemented-with-insecure-scheme': [-20, 'Content Security Policy (CSP) implemented, but secure site allows resources to be loaded over HTTP.'],
  'csp-header-invalid': [-25, 'Content Security Policy (CSP) header cannot be parsed successfully.'],
  'csp-not-implemented': [-25, 'Content Security Policy (CSP) header not implemented.'],
  'csp-not-implemented-but-reporting-enabled': [-25, 'Content Security Policy (CSP) reporting implemented only, with the Content-Security-Policy-Report-Only header.'],
  'csp-implemented-but-duplicate-directives': [0, 'Content Security Policy (CSP) implemented, but contains duplicate directives.'],
  // cookies
  'cookies-secure-with-httponly-sessions-and-samesite': [
    5,
    'All cookies use the Secure flag, session cookies use the HttpOnly flag, and cross-origin restrictions are in place via the SameSite flag.',
  ],
  'cookies-secure-with-httponly-sessions': [0, 'All cookies use the Secure flag and all session cookies use the HttpOnly flag.'],
  'cookies-not-found': [0, 'No cookies detected.'],
  'cookies-without-secure-flag-but-protected-by-hsts': [-5, 'Cookies set without using the Secure flag, but transmission over HTTP prevented by HSTS.'],
  'cookies-session-without-secure-flag-but-protected-by-hsts': [-10, 'Session cookie set without the Secure flag, but transmission over HTTP prevented by HSTS.'],
  'cookies-without-secure-flag': [-20, 'Cookies set without using the Secure flag or set over HTTP.'],
  'cookies-samesite-flag-invalid': [-20, 'Cookies use the SameSite flag, but set to something other than Strict or Lax.'],
  'cookies-anticsrf-without-samesite-flag': [-20, 'Anti-CSRF tokens set without using the SameSite flag.'],
  'cookies-session-without-httponly-flag': [-30, 'Session cookie set without using the HttpOnly flag.'],
  'cookies-session-without-secure-flag': [-40, 'Session cookie set without using the Secure flag or set over HTTP.'],
  // cross-origin-resource-sharing
  'cross-origin-resource-sharing-not-implemented': [0, 'Content is not visible via cross-origin resource sharing (CORS) files or headers.'],
  'cross-origin-resource-sharing-implemented-with-public-access': [0, 'Public content is visible via cross-origin resource sharing (CORS) Access-Control-Allow-Origin header.'],
  'cross-origin-resource-sharing-implemented-with-restricted-access': [
    0,
    'Content is visible via cross-origin resource sharing (CORS) files or headers, but is restricted to specific domains.',
  ],
  'cross-origin-resource-sharing-implemented-with-universal-access': [
    -50,
    'Content is visible via cross-origin resource sharing (CORS) file or headers, and credentials can be sent.',
  ],
  // redirection
  'redirection-all-redirects-preloaded': [0, 'All hosts redirected to are in the HTTP Strict Transport Security (HSTS) preload list.'],
  'redirection-to-https': [0, 'Initial redirection is to HTTPS on same host, final destination is HTTPS.'],
  'redirection-not-needed-no-http': [0, 'Not able to connect via HTTP, so no redirection necessary.'],
  'redirection-off-host-from-http': [-5, 'Initial redirection from HTTP to HTTPS is to a different host, preventing HSTS.'],
  'redirection-not-to-https-on-initial-redirection': [-10, 'Redirects to HTTPS eventually, but initial redirection is to another HTTP URL.'],
  'redirection-not-to-https': [-20, 'Redirects, but final destination is not an HTTPS URL.'],
  'redirection-missing': [-20, 'Does not redirect to an HTTPS site.'],
  'redirection-invalid-cert': [-20, 'Invalid certificate chain encountered during redirection.'],
  // referrer-policy
  'referrer-policy-private': [5, 'Referrer-Policy header set to no-referrer, same-origin, strict-origin or strict-origin-when-cross-origin.'],
  'referrer-policy-not-implemented': [0, 'Referrer-Policy header not implemented.'],
  'referrer-policy-unsafe': [-5, 'Referrer-Policy header set unsafely to origin, origin-when-cross-origin, unsafe-url or no-referrer-when-downgrade.'],
  'referrer-policy-header-invalid': [-5, 'Referrer-Policy header cannot be recognized.'],
  // strict-transport-security
  'hsts-preloaded': [5, 'Preloaded via the HTTP Strict Transport Security (HSTS) preloading process.'],
  'hsts-implemented-max-age-at-least-six-months': [0, 'Strict-Transport-Security header set to a minimum of six months (15768000).'],
  'hsts-implemented-max-age-less-than-six-months': [-10, 'Strict-Transport-Security header set to less than six months (15768000).'],
  'hsts-not-implemented': [-20, 'Strict-Transport-Security header not implemented.'],
  'hsts-header-invalid': [-20, 'Strict-Transport-Security header cannot be recognized.'],
  'hsts-not-implemented-no-https': [-20, 'Strict-Transport-Security header cannot be set for sites not available over HTTPS.'],
  'hsts-invalid-cert': [-20, 'Strict-Transport-Security header cannot be set, as site contains an invalid certificate chain.'],
  // subresource-integrity
  'sri-implemented-and-all-scripts-loaded-securely': [5, 'Subresource Integrity (SRI) is implemented and all scripts are loaded from a similar origin.'],
  'sri-implemented-and-external-scripts-loaded-securely': [5, 'Subresource Integrity (SRI) is implemented and all scripts are loaded securely.'],
  'sri-not-implemented-response-not-html': [0, 'Subresource Integrity (SRI) is only needed for HTML resources.'],
  'sri-not-implemented-but-no-scripts-loaded': [0, 'Subresource Integrity (SRI) is not needed since site contains no script tags.'],
  'sri-not-implemented-but-all-scripts-loaded-from-secure-origin': [0, 'Subresource Integrity (SRI) not implemented, but all scripts are loaded from a similar origin.'],
  'sri-not-implemented-but-external-scripts-loaded-securely': [-5, 'Subresource Integrity (SRI) not implemented, but all external scripts are loaded over HTTPS.'],
  'sri-implemented-but-external-scripts-not-loaded-securely': [
    -20,
    'Subresource Integrity (SRI) implemented, but external scripts are loaded over HTTP or use protocol-relative URLs via src="//...".',
  ],
  'sri-not-implemented-and-external-scripts-not-loaded-securely': [
    -50,
    'Subresource Integrity (SRI) not implemented, and external scripts are loaded over HTTP or use protocol-relative URLs via src="//...".',
  ],
  // x-content-type-options
  'x-content-type-options-nosniff': [0, 'X-Content-Type-Options header set to nosniff.'],
  'x-content-type-options-not-implemented': [-5, 'X-Content-Type-Options header not implemented.'],
  'x-content-type-options-header-invalid': [-5, 'X-Content-Type-Options header cannot be recognized.'],
  // x-frame-options
  'x-frame-options-implemented-via-csp': [5, 'X-Frame-Options (XFO) implemented via the CSP frame-ancestors directive.'],
  'x-frame-options-sameorigin-or-deny': [0, 'X-Frame-Options (XFO) header set to SAMEORIGIN or DENY.'],
  'x-frame-options-allow-from-origin': [0, 'X-Frame-Options (XFO) header uses ALLOW-FROM uri directive.'],
  'x-frame-options-not-implemented': [-20, 'X-Frame-Options (XFO) header not implemented.'],
  'x-frame-options-header-invalid': [-20, 'X-Frame-Options (XFO) header cannot be recognized.'],
  // cross-origin-resource-policy
  'corp-implemented-with-same-origin': [10, 'Cross Origin Resource Policy (CORP) implemented, prevents leaks into cross-origin contexts.'],
  'corp-implemented-with-same-site': [10, 'Cross Origin Resource Policy (CORP) implemented, prevents leaks into cross-site contexts.'],
  'corp-implemented-with-cross-origin': [0, 'Cross Origin Resource Policy (CORP) implemented, but allows cross-origin resource sharing by default.'],
  'corp-not-implemented': [0, 'Cross Origin Resource Policy (CORP) is not implemented (defaults to cross-origin).'],
  'corp-header-invalid': [-5, 'Cross-Origin-Resource-Policy (CORP) header cannot be recognized.'],
} as const satisfies Record<string, readonly [number, string]>;

export type ObservatoryResult = keyof typeof OBSERVATORY_RESULTS;

/** The Observatory's grade chart: the grade of each multiple of 5 from 100 down to 25; below 25 is F. */
const GRADE_CHART: ReadonlyArray<readonly [number, Grade]> = [
  [100, 'A+'],
  [90, 'A'],
  [85, 'A-'],
  [80, 'B+'],
  [70, 'B'],
  [65, 'B-'],
  [60, 'C+'],
  [50, 'C'],
  [45, 'C-'],
  [40, 'D+'],
  [30, 'D'],
  [25, 'D-'],
  [0, 'F'],
];

/** Bonuses only count when the score without them already earns an A. */
export const MINIMUM_SCORE_FOR_EXTRA_CREDIT = 90;

/** The Observatory grade of a score: A+ from 100, A from 90, A- 85, B+ 80, B 70, B- 65, C+ 60, C 50, C- 45, D+ 40, D 30, D- 25, F below. */
export function gradeFor(score: number): Grade {
  const bucket = Math.min(Math.max(0, score) - (Math.max(0, score) % 5), 100);
  return GRADE_CHART.find(([floor]) => bucket >= floor)![1];
}

interface Outcome {
  result: ObservatoryResult;
  pass: boolean;
}

/** Among results of one test, the one later in `order` is worse. */
function worse(order: readonly ObservatoryResult[], current: ObservatoryResult | undefined, next: ObservatoryResult): ObservatoryResult {
  if (!current) return next;
  return order.indexOf(next) > order.indexOf(current) ? next : current;
}

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
function mimeOf(exchange: Exchange): string {
  return (header(exchange.headers, 'content-type') ?? exchange.contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

interface Inputs {
  site: Site;
  auto: Exchange;
  html?: ParsedHtml;
  /** The HTTPS response, when the site answers over HTTPS. */
  https?: Exchange;
}

// --- content-security-policy ---------------------------------------------------------------------

/** Sources that allow almost anything, as the Observatory lists them. */
const BROAD = new Set(['ftp:', 'http:', 'https:', '*', 'http://*', 'http://*.*', 'https://*', 'https://*.*']);
const INLINE = new Set(["'unsafe-inline'", 'data:']);
const PASSIVE = ['img-src', 'media-src'];
const hasNonceOrHash = (sources: Iterable<string>) => [...sources].some((source) => /^'(sha256|sha384|sha512|nonce)-/.test(source));

function cspTest({ auto, html, site }: Inputs): Outcome & { csp?: ObservatoryCsp } {
  const headerPolicies = headerAll(auto.headers, 'content-security-policy');
  const metaPolicies = html?.metaHttpEquiv.filter((meta) => meta.name.trim() === 'content-security-policy' && meta.content).map((meta) => meta.content) ?? [];
  const empty: ObservatoryCsp = { directives: new Map(), duplicateReporting: false };
  let csp: ObservatoryCsp;
  try {
    csp = observatoryCsp([...headerPolicies, ...metaPolicies]);
  } catch (error) {
    if (error instanceof CspSyntaxError) return { result: 'csp-header-invalid', pass: false };
    throw error;
  }
  const headerOnly = attempt(() => observatoryCsp(headerPolicies)) ?? empty;
  const metaOnly = attempt(() => observatoryCsp(metaPolicies, true)) ?? empty;
  if (headerOnly.directives.size + metaOnly.directives.size === 0) {
    const reporting = header(auto.headers, 'content-security-policy-report-only');
    return { result: reporting ? 'csp-not-implemented-but-reporting-enabled' : 'csp-not-implemented', pass: false };
  }

  // The source lists are the parsed sets themselves: when script-src falls back to default-src, what is
  // removed below for script-src is removed for every directive that falls back too, as in the Observatory.
  const directives = csp.directives;
  const fallback = (name: string) => directives.get(name) ?? directives.get('default-src') ?? new Set(['*']);
  const scriptSrc = fallback('script-src');
  const styleSrc = fallback('style-src');
  const objectSrc = fallback('object-src');
  let result: ObservatoryResult | undefined;

  for (const sources of [scriptSrc, styleSrc]) if (hasNonceOrHash(sources)) sources.delete("'unsafe-inline'");
  if (hasNonceOrHash(scriptSrc) && scriptSrc.has("'strict-dynamic'")) {
    for (const source of [...scriptSrc]) {
      if ([...BROAD].some((broad) => source.startsWith(broad)) || source === "'self'" || source === "'unsafe-inline'") scriptSrc.delete(source);
    }
  } else if (scriptSrc.has("'strict-dynamic'")) {
    result = 'csp-header-invalid';
  }

  const active = [...directives].filter(([name]) => !PASSIVE.includes(name) && name !== 'script-src').flatMap(([, sources]) => [...sources]);
  active.push(...scriptSrc);
  const passive = PASSIVE.flatMap((name) => [...(directives.get(name) ?? directives.get('default-src') ?? [])]);
  const secureSite = /^https:/i.test(site.finalUrl);
  const insecure = (source: string) => source.startsWith('http:') || source.startsWith('ftp:');

  if ([...scriptSrc].some((source) => BROAD.has(source) || INLINE.has(source)) || [...objectSrc].some((source) => BROAD.has(source))) {
    result ??= 'csp-implemented-with-unsafe-inline';
  }
  if (secureSite && active.some(insecure)) result ??= 'csp-implemented-with-insecure-scheme';
  if (scriptSrc.has("'unsafe-eval'") || styleSrc.has("'unsafe-eval'")) result ??= 'csp-implemented-with-unsafe-eval';
  if (secureSite && passive.some(insecure)) result ??= 'csp-implemented-with-insecure-scheme-in-passive-content-only';
  if ([...styleSrc].some((source) => BROAD.has(source) || INLINE.has(source))) result ??= 'csp-implemented-with-unsafe-inline-in-style-src-only';
  const defaultSrc = directives.get('default-src');
  if (defaultSrc?.has("'none'") && defaultSrc.size === 1) result ??= 'csp-implemented-with-no-unsafe-default-src-none';
  result ??= 'csp-implemented-with-no-unsafe';

  const passing: ObservatoryResult[] = [
    'csp-implemented-with-no-unsafe',
    'csp-implemented-with-no-unsafe-default-src-none',
    'csp-implemented-with-unsafe-inline-in-style-src-only',
    'csp-implemented-with-insecure-scheme-in-passive-content-only',
  ];
  const pass = passing.includes(result);
  if (pass && csp.duplicateReporting) result = 'csp-implemented-but-duplicate-directives';
  return { result, pass, csp };
}

function attempt<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch {
    return undefined;
  }
}

// --- strict-transport-security -------------------------------------------------------------------

/** 15768000 s is six months, but the Observatory accepts the common 15552000 (180 days). */
const SIX_MONTHS = 15_552_000;

function hstsTest({ https }: Inputs): Outcome {
  if (!https) return { result: 'hsts-not-implemented-no-https', pass: false };
  if (certificateInvalid(https)) return { result: 'hsts-invalid-cert', pass: false };
  const values = headerAll(https.headers, 'strict-transport-security');
  if (!values.length) return { result: 'hsts-not-implemented', pass: false };
  // Repeated headers arrive comma-joined, which the Observatory rejects.
  const value = values.join(', ').slice(0, 1024);
  if (value.includes(',')) return { result: 'hsts-header-invalid', pass: false };
  let maxAge: number | undefined;
  for (const parameter of value.split(';').map((part) => part.trim().toLowerCase())) {
    // parseInt as the Observatory does: a non-numeric value gives NaN, which is not "less than six months".
    if (parameter.startsWith('max-age=')) maxAge = Number.parseInt(parameter.slice(8, 128), 10);
  }
  if (maxAge === undefined) return { result: 'hsts-header-invalid', pass: false };
  return maxAge < SIX_MONTHS ? { result: 'hsts-implemented-max-age-less-than-six-months', pass: false } : { result: 'hsts-implemented-max-age-at-least-six-months', pass: true };
}

// --- cookies -------------------------------------------------------------------------------------

const COOKIE_ORDER: ObservatoryResult[] = [
  'cookies-without-secure-flag-but-protected-by-hsts',
  'cookies-without-secure-flag',
  'cookies-session-without-secure-flag-but-protected-by-hsts',
  'cookies-samesite-flag-invalid',
  'cookies-anticsrf-without-samesite-flag',
  'cookies-session-without-httponly-flag',
  'cookies-session-without-secure-flag',
];

function cookiesTest(inputs: Inputs): Outcome {
  const { auto } = inputs;
  const hsts = hstsTest(inputs).pass;
  let result: ObservatoryResult | undefined;
  for (const raw of headerAll(auto.headers, 'set-cookie')) {
    for (const part of raw.split(';')) {
      const [key = '', value] = part.trim().split('=');
      if (key.trim().toLowerCase() === 'samesite' && (!value || !['lax', 'strict', 'none'].includes(value.trim().toLowerCase()))) {
        result = worse(COOKIE_ORDER, result, 'cookies-samesite-flag-invalid');
      }
    }
  }
  // The jar: later Set-Cookie headers for the same name, domain and path replace earlier ones.
  const jar = new Map<string, ReturnType<typeof parseSetCookie> & object>();
  for (const headers of [...auto.redirects.map((hop) => hop.headers), auto.headers]) {
    for (const raw of headerAll(headers, 'set-cookie')) {
      const cookie = parseSetCookie(raw);
      if (!cookie?.name || cookie.name === 'heroku-session-affinity') continue;
      jar.set(`${cookie.name}\n${cookie.domain ?? ''}\n${cookie.path ?? ''}`, cookie);
    }
  }
  if (!jar.size) return { result: 'cookies-not-found', pass: true };
  let missingSameSite = false;
  for (const cookie of jar.values()) {
    const name = cookie.name.toLowerCase();
    const session = name.includes('login') || name.includes('sess');
    const antiCsrf = name.includes('csrf');
    const sameSite = ['strict', 'lax', 'none'].find((value) => value === cookie.sameSite?.trim().toLowerCase());
    if (!cookie.secure && sameSite === 'none') result = worse(COOKIE_ORDER, result, 'cookies-samesite-flag-invalid');
    if (!cookie.secure) result = worse(COOKIE_ORDER, result, hsts ? 'cookies-without-secure-flag-but-protected-by-hsts' : 'cookies-without-secure-flag');
    if (antiCsrf && !sameSite) result = worse(COOKIE_ORDER, result, 'cookies-anticsrf-without-samesite-flag');
    if (session && !cookie.secure) result = worse(COOKIE_ORDER, result, hsts ? 'cookies-session-without-secure-flag-but-protected-by-hsts' : 'cookies-session-without-secure-flag');
    if (session && !cookie.httpOnly) result = worse(COOKIE_ORDER, result, 'cookies-session-without-httponly-flag');
    if (!sameSite) missingSameSite = true;
  }
  result ??= missingSameSite ? 'cookies-secure-with-httponly-sessions' : 'cookies-secure-with-httponly-sessions-and-samesite';
  return { result, pass: result === 'cookies-secure-with-httponly-sessions' || result === 'cookies-secure-with-httponly-sessions-and-samesite' };
}

// --- cross-origin-resource-sharing ---------------------------------------------------------------

function corsTest({ site }: Inputs): Outcome {
  const preflight = site.probes.get(`${CORS_PREFLIGHT_PREFIX}${site.finalUrl}`);
  const allowOrigin = preflight && !preflight.error ? header(preflight.headers, 'access-control-allow-origin') : undefined;
  if (!preflight || allowOrigin === undefined || allowOrigin === '') return { result: 'cross-origin-resource-sharing-not-implemented', pass: true };
  const credentials = header(preflight.headers, 'access-control-allow-credentials')?.trim().toLowerCase() === 'true';
  const origin = Object.entries(preflight.requestHeaders).find(([name]) => name.toLowerCase() === 'origin')?.[1] ?? PROBE_ORIGIN;
  if (allowOrigin.slice(0, 256).trim().toLowerCase() === '*') return { result: 'cross-origin-resource-sharing-implemented-with-public-access', pass: true };
  if (allowOrigin === origin && credentials) return { result: 'cross-origin-resource-sharing-implemented-with-universal-access', pass: false };
  return { result: 'cross-origin-resource-sharing-implemented-with-restricted-access', pass: true };
}

// --- redirection ---------------------------------------------------------------------------------

function redirectionTest({ site }: Inputs): Outcome {
  const probe = site.probes.get(HTTPS_REDIRECT_PROBE_KEY);
  if (!probe || (probe.error && !certificateInvalid(probe))) return { result: 'redirection-not-needed-no-http', pass: true };
  if (certificateInvalid(probe)) return { result: 'redirection-invalid-cert', pass: false };
  const route = redirectRoute(probe).map((hop) => new URL(hop.url));
  if (route.length === 1) return { result: 'redirection-missing', pass: false };
  if (route[route.length - 1]!.protocol !== 'https:') return { result: 'redirection-not-to-https', pass: false };
  if (route[1]!.protocol === 'http:') return { result: 'redirection-not-to-https-on-initial-redirection', pass: false };
  if (route[0]!.protocol === 'http:' && route[0]!.hostname !== route[1]!.hostname) return { result: 'redirection-off-host-from-http', pass: false };
  return { result: 'redirection-to-https', pass: true };
}

// --- referrer-policy -----------------------------------------------------------------------------

const REFERRER_GOOD = ['no-referrer', 'same-origin', 'strict-origin', 'strict-origin-when-cross-origin'];
const REFERRER_BAD = ['origin', 'origin-when-cross-origin', 'unsafe-url', 'no-referrer-when-downgrade'];

function referrerTest({ auto, html }: Inputs): Outcome {
  const values = headerAll(auto.headers, 'referrer-policy');
  const meta = html?.metaNames.filter((entry) => entry.name.trim() === 'referrer' && entry.content).at(-1);
  if (meta) values.push(meta.content);
  if (!values.length) return { result: 'referrer-policy-not-implemented', pass: true };
  const policy = values
    .join(', ')
    .split(',')
    .map((token) => token.trim().toLowerCase())
    .filter((token) => REFERRER_GOOD.includes(token) || REFERRER_BAD.includes(token))
    .at(-1);
  if (policy && REFERRER_GOOD.includes(policy)) return { result: 'referrer-policy-private', pass: true };
  if (policy) return { result: 'referrer-policy-unsafe', pass: false };
  return { result: 'referrer-policy-header-invalid', pass: false };
}

// --- subresource-integrity -----------------------------------------------------------------------

/** The <script> elements of a document with their raw src and integrity attributes. */
function scriptTags(body: string): Array<{ src?: string; integrity?: string; site?: string }> {
  const scripts: Array<{ src?: string; integrity?: string; site?: string }> = [];
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (name === 'script') scripts.push({ src: attrs.src?.trim(), integrity: attrs.integrity, site: attrs['data-site'] });
      },
    },
    { lowerCaseTags: true, lowerCaseAttributeNames: true, decodeEntities: true },
  );
  parser.write(body);
  parser.end();
  return scripts;
}

const SRI_ORDER: ObservatoryResult[] = [
  'sri-implemented-and-all-scripts-loaded-securely',
  'sri-implemented-and-external-scripts-loaded-securely',
  'sri-implemented-but-external-scripts-not-loaded-securely',
  'sri-not-implemented-but-external-scripts-loaded-securely',
  'sri-not-implemented-and-external-scripts-not-loaded-securely',
  'sri-not-implemented-response-not-html',
];

function sriTest({ auto, site }: Inputs): Outcome {
  if (!HTML_TYPES.has(mimeOf(auto))) return { result: 'sri-not-implemented-response-not-html', pass: true };
  const scripts = scriptTags(auto.body);
  if (!scripts.length) return { result: 'sri-not-implemented-but-no-scripts-loaded', pass: true };
  const siteDomain = parseDomain(new URL(site.target).hostname).domain;
  const secureSite = /^https:/i.test(site.finalUrl);
  let result: ObservatoryResult | undefined;
  let foreign = false;
  for (const script of scripts) {
    if (!script.src) continue;
    // Where this port departs from Observatory: vibeeval's own monitoring script, loaded over HTTPS, counts like a
    // same-origin script. Its server changes it in place, so it cannot carry SRI (engine/analysis/monitoring-script.ts).
    if (/^https:\/\//i.test(script.src) && isMonitoringScript(script)) continue;
    const protocolRelative = /^\/\/[^/]/.test(script.src);
    const absolute = /^https?:\/\//i.test(script.src);
    const relative = !protocolRelative && !absolute;
    const sameDomain = protocolRelative || relative || parseDomain(script.src).domain === siteDomain;
    const secureScheme = (absolute && /^https:/i.test(script.src)) || (relative && secureSite);
    const integrity = !!script.integrity;
    if (relative || (sameDomain && !protocolRelative)) {
      // The bonus applies even to same-origin scripts with SRI.
      if (integrity && secureScheme && !result) result = 'sri-implemented-and-all-scripts-loaded-securely';
      continue;
    }
    foreign = true;
    if (integrity && !secureScheme) result = worse(SRI_ORDER, result, 'sri-implemented-but-external-scripts-not-loaded-securely');
    else if (!integrity && secureScheme) result = worse(SRI_ORDER, result, 'sri-not-implemented-but-external-scripts-loaded-securely');
    else if (!integrity) result = worse(SRI_ORDER, result, 'sri-not-implemented-and-external-scripts-not-loaded-securely');
  }
  result ??= foreign ? 'sri-implemented-and-external-scripts-loaded-securely' : 'sri-not-implemented-but-all-scripts-loaded-from-secure-origin';
  const passing: ObservatoryResult[] = [
    'sri-implemented-and-all-scripts-loaded-securely',
    'sri-implemented-and-external-scripts-loaded-securely',
    'sri-not-implemented-response-not-html',
    'sri-not-implemented-but-all-scripts-loaded-from-secure-origin',
    'sri-not-implemented-but-no-scripts-loaded',
  ];
  return { result, pass: passing.includes(result) };
}

// --- x-content-type-options, x-frame-options, cross-origin-resource-policy -----------------------

function xctoTest({ auto }: Inputs): Outcome {
  const value = header(auto.headers, 'x-content-type-options');
  if (value === undefined || value === '') return { result: 'x-content-type-options-not-implemented', pass: false };
  if (value.slice(0, 256).trim().toLowerCase() === 'nosniff') return { result: 'x-content-type-options-nosniff', pass: true };
  return { result: 'x-content-type-options-header-invalid', pass: false };
}

function xfoTest({ auto }: Inputs, csp: ObservatoryCsp | undefined): Outcome {
  // frame-ancestors anywhere in the combined policy counts, whatever its value (as in the Observatory).
  if (csp?.directives.has('frame-ancestors')) return { result: 'x-frame-options-implemented-via-csp', pass: true };
  const value = header(auto.headers, 'x-frame-options');
  if (value === undefined || value === '') return { result: 'x-frame-options-not-implemented', pass: false };
  const xfo = value.slice(0, 1024).trim().toLowerCase();
  if (xfo === 'deny' || xfo === 'sameorigin') return { result: 'x-frame-options-sameorigin-or-deny', pass: true };
  if (xfo.startsWith('allow-from')) return { result: 'x-frame-options-allow-from-origin', pass: true };
  return { result: 'x-frame-options-header-invalid', pass: false };
}

function corpTest({ auto }: Inputs): Outcome {
  const value = header(auto.headers, 'cross-origin-resource-policy')?.slice(0, 256).trim().toLowerCase();
  if (!value) return { result: 'corp-not-implemented', pass: true };
  if (value === 'same-site') return { result: 'corp-implemented-with-same-site', pass: true };
  if (value === 'same-origin') return { result: 'corp-implemented-with-same-origin', pass: true };
  if (value === 'cross-origin') return { result: 'corp-implemented-with-cross-origin', pass: true };
  return { result: 'corp-header-invalid', pass: false };
}

/** Scores the start page as the HTTP Observatory would. */
export function scoreObservatory(site: Site): { score: number; grade: Grade; tests: ObservatoryTest[] } {
  const page = startPage(site);
  const auto = site.root;
  const inputs: Inputs = {
    site,
    auto,
    html: page.html,
    https: /^https:/i.test(site.finalUrl) && !auto.error ? auto : undefined,
  };
  const csp = cspTest(inputs);
  const outcomes: Array<[string, Outcome]> = [
    ['content-security-policy', csp],
    ['cookies', cookiesTest(inputs)],
    ['cross-origin-resource-sharing', corsTest(inputs)],
    ['redirection', redirectionTest(inputs)],
    ['referrer-policy', referrerTest(inputs)],
    ['strict-transport-security', hstsTest(inputs)],
    ['subresource-integrity', sriTest(inputs)],
    ['x-content-type-options', xctoTest(inputs)],
    ['x-frame-options', xfoTest(inputs, csp.csp)],
    ['cross-origin-resource-policy', corpTest(inputs)],
  ];
  let withBonus = 100;
  let withoutBonus = 100;
  const tests = outcomes.map(([test, { result, pass }]) => {
    const [scoreModifier, description] = OBSERVATORY_RESULTS[result];
    withBonus += scoreModifier;
    if (scoreModifier < 0) withoutBonus += scoreModifier;
    return { test, pass, result, scoreModifier, description };
  });
  const score = Math.max(0, withoutBonus >= MINIMUM_SCORE_FOR_EXTRA_CREDIT ? withBonus : withoutBonus);
  return { score, grade: gradeFor(score), tests };
}
