// Every JSON Web Token a site hands to browsers: in cookies (Set-Cookie headers and the rendered browser's jar), in
// local and session storage seen while rendering, and in HTML and scripts. Pure over retrieved data, computed once
// per site; the jwt-* checks judge what is found. Signatures are tried offline against a list of common secrets.
import { createHmac } from 'node:crypto';
import secretData from '../data/jwt-secrets.json';
import { decodeJwt, supabaseJwtRole } from '../secrets/jwt';
import { maskSecret, secretId } from '../secrets/mask';
import { collectTexts } from '../secrets/scan';
import type { SiteBeforeProbes } from '../types';
import { collectCookies } from './cookies';

/** Where a token was handed out: a session the site set (cookie, storage) or a constant in its code. */
export type JwtPlace = 'cookie' | 'storage' | 'code';

export interface FoundJwt {
  /** Raw token: mask before output (maskSecret), never show it whole. */
  token: string;
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
  /** The header's alg as written ('HS256', 'none', 'None' …); '' when missing. */
  alg: string;
  /** The most telling place it was seen: cookie, then storage, then code. */
  place: JwtPlace;
  /** Cookie name or storage key (for code: 'page', 'inline script', 'script', 'source map …'). */
  name: string;
  /** Role of a Supabase API key ('anon', 'service_role'): public or dedicated keys, not sessions. */
  supabaseRole?: string;
  locations: Array<{ url: string; where: string }>;
}

/**
 * Compact JWS with a JSON header and payload. The signature may be empty (alg none). Bounded repetitions of single
 * classes only: linear over multi-megabyte bundles.
 */
const JWT = /(?<![\w-])eyJ[A-Za-z0-9_-]{8,600}\.eyJ[A-Za-z0-9_-]{4,3000}\.[A-Za-z0-9_-]{0,1000}(?![\w-])/g;
const RANK: Record<JwtPlace, number> = { cookie: 0, storage: 1, code: 2 };

/** Tokens in one text (with a cheap prefilter: most texts have none). */
export function tokensIn(text: string): string[] {
  if (!text.includes('eyJ')) return [];
  return [...text.matchAll(JWT)].map((m) => m[0]).filter((token) => decodeJwt(token) !== undefined);
}

/** A cookie value as stored: raw, URL-encoded, or Supabase SSR's "base64-" JSON session. */
function cookieTexts(value: string): string[] {
  const out = [value];
  try {
    const decoded = decodeURIComponent(value);
    if (decoded !== value) out.push(decoded);
  } catch {
    /* not URL-encoded */
  }
  if (value.startsWith('base64-')) out.push(Buffer.from(value.slice('base64-'.length), 'base64').toString('utf8'));
  return out;
}

class Collector {
  private readonly byToken = new Map<string, FoundJwt>();
  add(token: string, place: JwtPlace, name: string, url: string, where: string): void {
    const known = this.byToken.get(token);
    if (known) {
      if (!known.locations.some((l) => l.url === url && l.where === where)) known.locations.push({ url, where });
      if (RANK[place] < RANK[known.place]) Object.assign(known, { place, name });
      return;
    }
    const jwt = decodeJwt(token);
    if (!jwt) return;
    const alg = typeof jwt.header.alg === 'string' ? jwt.header.alg : '';
    const supabaseRole = supabaseJwtRole(token)?.role;
    this.byToken.set(token, { token, ...jwt, alg, place, name, supabaseRole, locations: [{ url, where }] });
  }
  list(): FoundJwt[] {
    return [...this.byToken.values()];
  }
}

const memo = new WeakMap<object, { site: SiteBeforeProbes; found: FoundJwt[] }>();

/** Every distinct JWT of the site, in order of first sighting (cookies, storage, then code). */
export function findJwts(site: SiteBeforeProbes): FoundJwt[] {
  const known = memo.get(site.pages);
  if (known && known.site.assets === site.assets && known.site.rendering === site.rendering) return known.found;
  const collector = new Collector();
  for (const cookie of collectCookies(site)) {
    for (const text of cookieTexts(cookie.value)) {
      for (const token of tokensIn(text)) collector.add(token, 'cookie', cookie.name, cookie.url, `cookie "${cookie.name}"`);
    }
  }
  for (const item of site.rendering.storage) {
    const where = `${item.kind}Storage "${item.key.slice(0, 80)}"`;
    for (const token of tokensIn(item.value)) collector.add(token, 'storage', item.key, item.origin, where);
  }
  for (const source of collectTexts(site)) {
    // Storage is read above with its key; request headers carry the scanning browser's own copies of the same tokens.
    if (source.kind === 'storage' || source.kind === 'request') continue;
    for (const token of tokensIn(source.text)) collector.add(token, 'code', source.where, source.url, source.where);
  }
  const found = collector.list();
  memo.set(site.pages, { site, found });
  return found;
}

const HASHES: Record<string, string> = { HS256: 'sha256', HS384: 'sha384', HS512: 'sha512' };
/** The candidate secrets, defaults first (engine/data/jwt-secrets.json says where they come from). */
export const JWT_SECRETS: readonly string[] = (secretData as { secrets: string[] }).secrets;

const cracked = new Map<string, string | null>();

/**
 * The HMAC secret of an HS256/384/512 token when it is on the list (or in `candidates`), else undefined. Offline:
 * one HMAC per candidate, about 3,000 in a few milliseconds. Results are cached per token.
 */
export function weakSecretOf(token: string, candidates: readonly string[] = JWT_SECRETS): string | undefined {
  const cache = candidates === JWT_SECRETS;
  if (cache && cracked.has(token)) return cracked.get(token) ?? undefined;
  const [head = '', body = '', signature = ''] = token.split('.');
  const jwt = decodeJwt(token);
  const hash = jwt && typeof jwt.header.alg === 'string' ? HASHES[jwt.header.alg.toUpperCase()] : undefined;
  let found: string | undefined;
  if (hash && signature) {
    const expected = Buffer.from(signature, 'base64url');
    const input = `${head}.${body}`;
    for (const candidate of candidates) {
      if (createHmac(hash, candidate).update(input).digest().equals(expected)) {
        found = candidate;
        break;
      }
    }
  }
  if (cache) {
    // Bounded: a scan sees a handful of tokens; long-running workers should not grow this without limit.
    if (cracked.size > 500) cracked.clear();
    cracked.set(token, found ?? null);
  }
  return found;
}

/** A cracked secret as evidence: its first two characters, the rest starred, so the report is not the leak. */
export function maskWeakSecret(secret: string): string {
  return `${secret.slice(0, 2)}${'*'.repeat(Math.max(4, secret.length - 2))}`;
}

/** Where a token was seen, one line per place (capped), for evidence. */
export function describeJwtLocations(jwt: FoundJwt): string {
  const lines = jwt.locations.slice(0, 6).map((l) => `${l.where}: ${l.url}`);
  if (jwt.locations.length > 6) lines.push(`… and ${jwt.locations.length - 6} more places`);
  return lines.join('\n');
}

/** The token as evidence: masked, with where it sits. */
export function jwtMatch(jwt: FoundJwt): string {
  return `${jwt.place === 'code' ? jwt.name : jwt.place === 'cookie' ? `cookie ${jwt.name}` : `storage ${jwt.name}`} = ${maskSecret(jwt.token)}`;
}

/**
 * A finding key that survives rescans: a session is issued anew on every visit, so cookie and storage tokens are
 * known by where they live; a token in code by a hash of itself.
 */
export function jwtKey(jwt: FoundJwt): string {
  return jwt.place === 'code' ? `code:${secretId(jwt.token)}` : `${jwt.place}:${jwt.name}`;
}

/** True for a session or user token the site set (not a public API key such as Supabase's anon key). */
export function isSessionToken(jwt: FoundJwt): boolean {
  return jwt.place !== 'code' && jwt.supabaseRole !== 'anon' && jwt.supabaseRole !== 'service_role';
}
