// Shared helpers for checks that probe paths: planning the requests, telling a real file from a soft 404
// (single-page apps answer every path with index.html and HTTP 200), and building evidence with secrets masked.
import { header } from '../http/headers';
import { scanText } from '../secrets/scan';
import type { Evidence, Exchange, ProbeRequest, Site, SiteBeforeProbes } from '../types';

/** Longest body excerpt kept in evidence. */
export const EXCERPT_LIMIT = 1_000;

/** The probe key a check uses for a path: unique per scan because it starts with the check id. */
export function probeKey(checkId: string, path: string): string {
  return `${checkId}:${path}`;
}

/** GET probes for absolute paths at the scan's origin, one per path. */
export function pathProbes(
  checkId: string,
  site: SiteBeforeProbes,
  paths: readonly string[],
  extra: Partial<Pick<ProbeRequest, 'binary' | 'headers' | 'noRedirect'>> = {},
): ProbeRequest[] {
  return paths.map((path) => ({ key: probeKey(checkId, path), method: 'GET', url: new URL(path, site.origin).href, ...extra }));
}

/** Loopback hosts: traffic to them never leaves the machine, so plain HTTP there exposes nothing. */
export function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname.endsWith('.localhost') || /^127\./.test(hostname) || hostname === '[::1]';
}

/** The media type of an exchange, lower-cased, without parameters. */
/** The parsed JSON body of a 200 answer; undefined for no answer, an error, another status or a body that is not JSON. */
export function okJson(answer: Exchange | undefined): unknown {
  if (!answer || answer.error || answer.status !== 200) return undefined;
  try {
    return JSON.parse(answer.body) as unknown;
  } catch {
    return undefined;
  }
}

export function mediaType(exchange: Exchange): string {
  return (exchange.contentType || header(exchange.headers, 'content-type') || '').split(';')[0]!.trim().toLowerCase();
}

/** True when a body is an HTML document (the SPA shell, an error page), judged by its first tag. */
export function looksLikeHtmlDocument(body: string): boolean {
  return /^(?:\uFEFF)?\s*(?:<!--[\s\S]{0,2000}?-->\s*)*<(?:!doctype\s+html|html[\s>]|head[\s>]|body[\s>]|meta[\s>]|title[\s>]|script[\s>]|link[\s>]|div[\s>])/i.test(
    body.slice(0, 4_000),
  );
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

/**
 * A body reduced to what stays the same between two answers of the same template: the requested path, numbers,
 * long tokens (nonces, CSRF tokens, build hashes) and whitespace are removed.
 */
export function normalizeBody(body: string, requestedUrl?: string): string {
  let text = body.slice(0, 200_000);
  if (requestedUrl) {
    const path = pathOf(requestedUrl);
    if (path.length > 1) text = text.split(path).join('');
  }
  return text
    .replace(/[A-Za-z0-9+/_-]{20,}={0,2}/g, '')
    .replace(/\d+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

function tokenSet(text: string): Set<string> {
  return new Set(
    text
      .slice(0, 50_000)
      .split(/[^A-Za-z]+/)
      .filter((token) => token.length > 2),
  );
}

/** Jaccard similarity of the word sets of two texts, 0..1. */
export function textSimilarity(a: string, b: string): number {
  const left = tokenSet(a);
  const right = tokenSet(b);
  if (left.size === 0 && right.size === 0) return a === b ? 1 : 0;
  let shared = 0;
  for (const token of left) if (right.has(token)) shared++;
  return shared / (left.size + right.size - shared);
}

/**
 * True when an answer is the site's catch-all page rather than the file asked for: same status and media type as the
 * answer to a path that cannot exist, and a body that is the same or nearly the same once normalised.
 */
export function isSoft404(answer: Exchange, notFound: Exchange | undefined): boolean {
  if (!notFound || notFound.error || notFound.status === 0) return false;
  if (answer.status !== notFound.status) return false;
  if (mediaType(answer) !== mediaType(notFound)) return false;
  const a = normalizeBody(answer.body, answer.url);
  const b = normalizeBody(notFound.body, notFound.url);
  if (a === b) return true;
  const longer = Math.max(a.length, b.length);
  if (longer === 0) return true;
  // Binary bodies (kept as latin1 text) of the same length and type are the same catch-all file too.
  if (Math.abs(a.length - b.length) > Math.max(64, longer * 0.1)) return false;
  return textSimilarity(a, b) >= 0.9;
}

/** True when redirects took the request to another path (a login page, the home page). */
export function redirectedAway(exchange: Exchange): boolean {
  if (exchange.redirects.length === 0) return false;
  const asked = pathOf(exchange.url).replace(/(?<!\/)\/+$/, '');
  const got = pathOf(exchange.finalUrl).replace(/(?<!\/)\/+$/, '');
  return asked !== got;
}

/**
 * The answer to a probe when it can prove something: present, no network error, a 2xx status, not redirected to
 * another path and not the site's soft 404. Checks still have to find proof in the content.
 */
export function usableAnswer(site: Site, key: string): Exchange | undefined {
  const answer = site.probes.get(key);
  if (!answer || answer.error || answer.status < 200 || answer.status >= 300) return undefined;
  if (redirectedAway(answer)) return undefined;
  if (isSoft404(answer, site.notFound)) return undefined;
  return answer;
}

/** Answers for a list of probed paths that pass usableAnswer, in path order. */
export function usableAnswers(site: Site, checkId: string, paths: readonly string[]): Array<{ path: string; answer: Exchange }> {
  const out: Array<{ path: string; answer: Exchange }> = [];
  for (const path of paths) {
    const answer = usableAnswer(site, probeKey(checkId, path));
    if (answer) out.push({ path, answer });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Secrets: recognising values worth hiding, and masking them in evidence.

/** Key names whose values are credentials. */
export const SECRET_KEY_NAME =
  /(secret|passw(?:or)?d|\bpwd\b|_pwd|token|api[_-]?key|private[_-]?key|access[_-]?key|credential|auth[_-]?key|client[_-]?secret|database[_-]?url|db[_-]?url|dsn|connection[_-]?string|signing|encryption[_-]?key|service[_-]?role|webhook|smtp[_-]?pass|jwt)/i;

/** Token formats that are secrets wherever they appear (prefix-anchored, so false positives are rare). */
export const KNOWN_TOKEN =
  /\b(?:sk_live_[0-9A-Za-z]{16,}|rk_live_[0-9A-Za-z]{16,}|sk-(?:proj-|ant-api\d\d-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}|AKIA[0-9A-Z]{16}|ASIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{35}|gh[pousr]_[0-9A-Za-z]{36,}|github_pat_[0-9A-Za-z_]{40,}|xox[abposr]-[0-9A-Za-z-]{10,}|SG\.[0-9A-Za-z_-]{16,}\.[0-9A-Za-z_-]{16,}|sb_secret_[0-9A-Za-z_-]{16,}|sbp_[0-9a-f]{40}|glpat-[0-9A-Za-z_-]{20}|eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}|-----BEGIN (?:RSA |EC |OPENSSH |DSA |)PRIVATE KEY-----)/;

const PLACEHOLDER =
  /^(?:|null|none|nil|undefined|true|false|yes|no|on|off|0|1|change[_-]?me|example|sample|test|dummy|todo|xxx+|\*+|\.\.\.|<[^>]*>|\{\{[^}]*\}\}|\$\{[^}]*\}|your[_-].*|.*[_-]here|replace[_-]?me.*|placeholder.*|secret|password)$/i;

/** True for a value that looks like a real credential rather than a placeholder or a flag. */
export function looksLikeSecretValue(value: string, keyName = ''): boolean {
  const clean = value
    .trim()
    .replace(/^["']|["']$/g, '')
    .trim();
  if (KNOWN_TOKEN.test(clean)) return true;
  if (/:\/\/[^/\s:@]+:[^/\s@]{3,}@/.test(clean)) return !/:\/\/[^:]+:(?:password|pass|changeme|\*+)@/i.test(clean);
  if (PLACEHOLDER.test(clean)) return false;
  if (!SECRET_KEY_NAME.test(keyName)) return false;
  if (clean.length < 8 || /^\d+$/.test(clean)) return false;
  if (/^https?:\/\/[^@]*$/i.test(clean)) return false;
  return true;
}

/**
 * Names evidence also hides, beyond SECRET_KEY_NAME (which decides severity, so stays narrow): any *_KEY, *_PASS,
 * PRIVATE*, CREDENTIALS, AUTH as a word of the name (`STRIPE_KEY`, `DB_PASS`, `private`).
 */
const EVIDENCE_SECRET_NAME = /(?<![a-z])(?:key|pass|private|credentials?|auth|salt|cert)(?![a-z])/i;
/** Names of values meant to be public. */
const PUBLIC_NAME = /public|publishable|anon|site_?key|key_?(?:id|name)/i;

/**
 * Whether evidence must hide a value. Looser than looksLikeSecretValue (which decides severity): any non-placeholder
 * value under a credential-like name is hidden, however short or weak ("DB_PASSWORD=hunter2" included).
 */
export function shouldMask(value: string, keyName = ''): boolean {
  if (looksLikeSecretValue(value, keyName)) return true;
  const clean = value
    .trim()
    .replace(/^["']|["']$/g, '')
    .trim();
  const secretName = SECRET_KEY_NAME.test(keyName) || (EVIDENCE_SECRET_NAME.test(keyName) && !PUBLIC_NAME.test(keyName));
  return secretName && clean.length > 0 && !PLACEHOLDER.test(clean) && !/^https?:\/\/[^@]*$/i.test(clean);
}

/** A secret shown by its first four characters only. */
export function maskValue(value: string): string {
  return value.length <= 8 ? '****' : `${value.slice(0, 4)}****`;
}

/** Masks a value unless an earlier pass already did. */
const masked = (value: string, keyName: string) => (shouldMask(value, keyName) && !value.includes('****') ? maskValue(value) : value);

/** A `NAME=value` / `name: value` line (env, YAML, INI, a header): the lead up to the value, then the rest of the line. */
const ASSIGNMENT_LINE = /^([ \t]*(?:export[ \t]+)?[A-Za-z_][A-Za-z0-9_.-]{0,100}[ \t]*[=:][ \t]*)([^ \t\r\n][^\r\n]*)?$/gm;

/** The value of an assignment line masked: quoted values whole (quotes inside included), unquoted ones up to a ` #` comment. */
function maskAssignmentLine(all: string, lead: string, rest = ''): string {
  const quote = rest[0];
  if (quote === '"' || quote === "'") {
    const close = rest.lastIndexOf(quote);
    if (close > 0) return `${lead}${quote}${masked(rest.slice(1, close), lead)}${rest.slice(close)}`;
  }
  const comment = /(?<![ \t])[ \t]+#/.exec(rest);
  const value = (comment ? rest.slice(0, comment.index) : rest).trimEnd();
  if (!value) return all;
  return `${lead}${masked(value, lead)}${rest.slice(value.length)}`;
}

/** Headers whose value is a credential whatever it looks like. */
const CREDENTIAL_HEADER =
  /^([ \t]*(?:authorization|proxy-authorization|x-api-key|api-key|x-auth-token|x-access-token)[ \t]*:[ \t]*)(?:((?:Bearer|Basic|Token|Digest)[ \t]+))?([^ \t\r\n][^\r\n]*)$/gim;
/** Cookie headers: each cookie's value (kept when short: a preference, not a session). */
const COOKIE_HEADER = /^([ \t]*(?:set-cookie|cookie)[ \t]*:[ \t]*)([^ \t\r\n][^\r\n]*)$/gim;
const maskCookies = (line: string) =>
  line.replace(/(^|;[ \t]*)([^=;\s]{1,200})=([^;\r\n]{9,4000})/g, (all, sep: string, name: string, value: string) =>
    value.includes('****') ? all : `${sep}${name}=${maskValue(value)}`,
  );

/** An AWS secret access key has no prefix: 40 characters of base64 without padding, masked when the text speaks of AWS. */
const AWS_SECRET_SHAPE = /(?<![A-Za-z0-9/+=])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/g;
const AWS_CONTEXT = /AKIA|ASIA|aws|secret_?access/i;
const looksLikeAwsSecret = (value: string) => /[a-z]/.test(value) && /[A-Z]/.test(value) && /\d/.test(value) && new Set(value).size >= 20;

/**
 * Masks credentials in text (bodies, matches, context excerpts, headers): by shape (the engine's provider formats,
 * known token prefixes, AWS secret keys near AWS names, URL passwords) and by name (`NAME=value`, `name: value`,
 * `"name": "value"`, `name: "value"` in code, `'name' => 'value'`, an HTML table row of a name and its value,
 * credential headers). Each value keeps its first four characters, so its owner can recognise it.
 */
export function maskSecrets(text: string): string {
  let out = text;
  // Provider formats first: a secret whose name gives nothing away is still hidden.
  // (Connection strings keep their host: the URL rule below hides their password only.)
  for (const hit of scanText(out, 'request')) if (!hit.public && !hit.secret.includes('://')) out = out.split(hit.secret).join(maskValue(hit.secret));
  if (AWS_CONTEXT.test(out)) out = out.replace(AWS_SECRET_SHAPE, (value) => (looksLikeAwsSecret(value) ? maskValue(value) : value));
  return (
    out
      .replace(new RegExp(KNOWN_TOKEN.source, 'g'), (token) => maskValue(token))
      .replace(/(:\/\/[^/\s:@]{1,200}:)([^/\s@]{3,500})(@)/g, (_m, a: string, secret: string, b: string) => `${a}${secret.includes('****') ? secret : maskValue(secret)}${b}`)
      .replace(CREDENTIAL_HEADER, (all, lead: string, scheme: string | undefined, value: string) =>
        value.includes('****') ? all : `${lead}${scheme ?? ''}${maskValue(value.trim())}`,
      )
      .replace(COOKIE_HEADER, (_all, lead: string, cookies: string) => `${lead}${maskCookies(cookies)}`)
      .replace(ASSIGNMENT_LINE, maskAssignmentLine)
      // Assignments inside a line (code, JSON, PHP): define('DB_PASSWORD', '…'), 'password' => '…', password = "…",
      // {secretAccessKey:"…"}, "token": "…"
      // A name is tried only from the start of its run of name characters: from every position of a long run the
      // {1,80} would read up to 80 characters each time (linear, but 80 times the run).
      .replace(
        /(['"]?)(?<![\w$.-])([A-Za-z_$][\w$.-]{1,80})\1(\s{0,5}(?:,|=>|=|:)\s{0,5})(?:"([^"\r\n]{4,1000})"|'([^'\r\n]{4,1000})'|`([^`\r\n]{4,1000})`)/g,
        (all, q1: string, key: string, sep: string, double?: string, single?: string, back?: string) => {
          const value = double ?? single ?? back ?? '';
          const quote = double !== undefined ? '"' : single !== undefined ? "'" : '`';
          const hidden = masked(value, key);
          return hidden === value ? all : `${q1}${key}${q1}${sep}${quote}${hidden}${quote}`;
        },
      )
      .replace(/("([^"\\]{1,80})"\s{0,5}:\s{0,5}")((?:[^"\\]|\\.){4,1000})(")/g, (all, lead: string, key: string, value: string, tail: string) => {
        const hidden = masked(value, key);
        return hidden === value ? all : `${lead}${hidden}${tail}`;
      })
      // A table of settings (phpinfo, debug pages): <td>DB_PASSWORD</td><td>value</td>
      .replace(
        /(<t[dh][^>]{0,200}>\s{0,20}([A-Za-z_][\w.-]{1,80})\s{0,20}<\/t[dh]>\s{0,20}<t[dh][^>]{0,200}>\s{0,20})([^<\s][^<]{0,1000})(<\/t[dh]>)/gi,
        (all, lead: string, key: string, cell: string, tail: string) => {
          const value = cell.trimEnd();
          const hidden = masked(value, key);
          return hidden === value ? all : `${lead}${hidden}${cell.slice(value.length)}${tail}`;
        },
      )
  );
}

/** Evidence with every value that looks like a secret masked, in every field: the last pass before a finding is kept or shown. */
export function maskEvidence(evidence: Evidence): Evidence {
  const out: Evidence = {};
  for (const [field, value] of Object.entries(evidence) as Array<[keyof Evidence, string | undefined]>) if (value !== undefined) out[field] = maskSecrets(value);
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Evidence.

/** The request line as it travelled. */
export function formatRequest(exchange: Exchange): string {
  let target = exchange.url;
  let host = '';
  try {
    const url = new URL(exchange.url);
    target = url.pathname + url.search;
    host = url.host;
  } catch {
    // keep the raw URL
  }
  return `${exchange.method} ${target} HTTP/1.1\nHost: ${host}`;
}

/** A printable excerpt of a (possibly binary) body: text as is, binary as a hex dump of its first bytes. */
export function bodyExcerpt(body: string, start = 0, limit = EXCERPT_LIMIT): string {
  const slice = body.slice(start, start + limit);
  // eslint-disable-next-line no-control-regex -- detecting binary content is the point
  const binary = /[\x00-\x08\x0e-\x1f]/.test(slice.slice(0, 512));
  if (!binary) return maskSecrets(slice);
  const bytes = Array.from(slice.slice(0, 64), (ch) => (ch.charCodeAt(0) & 0xff).toString(16).padStart(2, '0'));
  return `[binary] ${bytes.join(' ')}`;
}

/** An excerpt centred on a match, at most `limit` characters. */
export function excerptAround(body: string, index: number, limit = EXCERPT_LIMIT): string {
  const start = Math.max(0, index - Math.floor(limit / 3));
  return bodyExcerpt(body, start, limit);
}

const EVIDENCE_HEADERS = ['content-type', 'content-length', 'location', 'server', 'x-powered-by', 'last-modified'];

/** Status line, a few relevant headers and a body excerpt. */
export function formatResponse(exchange: Exchange, opts: { headers?: string[]; excerpt?: string } = {}): string {
  const wanted = new Set((opts.headers ?? EVIDENCE_HEADERS).map((name) => name.toLowerCase()));
  const lines = [`HTTP/1.1 ${exchange.status}`];
  for (const [name, value] of exchange.headers) if (wanted.has(name)) lines.push(maskSecrets(`${name}: ${value}`));
  const excerpt = opts.excerpt ?? bodyExcerpt(exchange.body);
  return `${lines.join('\n')}\n\n${excerpt}`.slice(0, 8_000);
}

/** Evidence for a finding proved by one exchange. */
export function exchangeEvidence(exchange: Exchange, match: string, opts: { headers?: string[]; excerpt?: string } = {}): Evidence {
  return { request: formatRequest(exchange), response: formatResponse(exchange, opts), match: maskSecrets(match).slice(0, 2_000) };
}
