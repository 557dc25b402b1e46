// The site's own pages and JSON routes behind its login, read as each test account: the pages a visitor is sent to
// sign in from, and the same-origin API routes the bundle calls. What one account's answers link to (a page such as
// /invoices/1042, a record id in a JSON list) and the other's do not is hers; the other account then asks for it. The
// same answer (once each account's own login is set aside) means any signed-in user reads any user's record. Ids are
// only those learned from the accounts' own answers, never guessed. Pure.
import { collectApiEndpoints, hasSideEffectWord } from '../analysis/api-surface';
import { parseHtml } from '../retrieval/html';
import { isAuthFlowUrl, isLoginUrl } from '../retrieval/sign-in-pages';
import type { Exchange, ProbeRequest, Site, SiteBeforeProbes } from '../types';

export const CROSS_USER_PAGE_ID = 'signed-in-cross-user-page';
/** Start points read as each account: pages behind the login and JSON routes. */
const MAX_STARTS = 6;
/** Records of the other account asked for, per account. */
const MAX_RECORDS = 4;
/** A path segment that names one record: digits, a uuid, or a mixed token with a digit (inv_8Kq2, 65f1c0…). */
const RECORD_SEGMENT = /^(?:\d{1,19}|[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}|(?=[\w-]{0,39}\d)[\w-]{4,40})$/i;

export interface Start {
  url: string;
  probes: ProbeRequest[];
}

/** Pages the crawl was sent to sign in from, and the bundle's same-origin GET routes: each as each account. */
export function startReads(site: SiteBeforeProbes): Start[] {
  const accounts = site.accounts ?? [];
  if (accounts.length < 2) return [];
  const walled = site.pages.flatMap((p) => (isLoginUrl(p.exchange.finalUrl) ? walledUrls(p.exchange, site.origin) : []));
  const api = collectApiEndpoints(site)
    .map((e) => e.url)
    .filter((url) => new URL(url).origin === site.origin && !hasSideEffectWord(new URL(url).pathname) && !isAuthFlowUrl(url) && !RECORD_SEGMENT.test(lastSegment(url)));
  const urls = [...new Set([...walled, ...api])].slice(0, MAX_STARTS);
  return urls.map((url) => ({ url, probes: accounts.map((_, as) => ({ key: `${CROSS_USER_PAGE_ID}:start:${url}:${as}`, method: 'GET' as const, url, as })) }));
}

/** Where a login page says the visitor came from: `?next=/invoices`, `?redirect=`, `?returnTo=`, `?callbackUrl=`. */
const RETURN_PARAMS = ['next', 'redirect', 'redirect_to', 'redirectTo', 'returnTo', 'return_to', 'callbackUrl', 'from'];

/** The pages behind a login that sent the crawl to it: the URL asked for, and the one its return parameter names. */
function walledUrls(exchange: Exchange, origin: string): string[] {
  const found = [exchange.url];
  const login = new URL(exchange.finalUrl);
  for (const name of RETURN_PARAMS) {
    const value = login.searchParams.get(name);
    if (!value) continue;
    try {
      found.push(new URL(value, origin).href);
    } catch {
      // not a URL: nothing to read
    }
  }
  return found.filter((url) => new URL(url).origin === origin && !isAuthFlowUrl(url) && !isLoginUrl(url));
}

function lastSegment(url: string): string {
  const parts = new URL(url).pathname.split('/').filter(Boolean);
  return parts[parts.length - 1] ?? '';
}

const readable = (answer: Exchange | undefined): answer is Exchange => !!answer && !answer.error && answer.status === 200 && !isLoginUrl(answer.finalUrl);

/** Record URLs an answer names: same-origin links ending in a record id, and `id`s of a JSON list under its route. */
export function recordLinks(answer: Exchange | undefined, origin: string): string[] {
  if (!readable(answer)) return [];
  const found = new Set<string>();
  if (answer.contentType.includes('json')) {
    let data: unknown;
    try {
      data = JSON.parse(answer.body) as unknown;
    } catch {
      return [];
    }
    const holder = data !== null && typeof data === 'object' && !Array.isArray(data) ? Object.values(data).find(Array.isArray) : data;
    const list: unknown[] = Array.isArray(holder) ? holder.slice(0, 20) : [];
    const base = answer.url.split('?', 1)[0]!.replace(/\/$/, '');
    for (const item of list) {
      const id = item !== null && typeof item === 'object' ? (item as Record<string, unknown>).id : undefined;
      if ((typeof id === 'string' || typeof id === 'number') && RECORD_SEGMENT.test(String(id))) found.add(`${base}/${encodeURIComponent(String(id))}`);
    }
    return [...found];
  }
  for (const link of parseHtml(answer.body, answer.finalUrl).links.slice(0, 500)) {
    const url = new URL(link);
    url.hash = '';
    if (url.origin === origin && !isAuthFlowUrl(url.href) && !hasSideEffectWord(url.pathname) && RECORD_SEGMENT.test(lastSegment(url.href))) found.add(url.href);
  }
  return [...found];
}

export interface RecordRead {
  url: string;
  /** The account whose answers linked to it (only hers). */
  owner: number;
  /** The account that asks for it. */
  reader: number;
  /** The reader's probe and the owner's (her own view, to compare with). */
  probes: [ProbeRequest, ProbeRequest];
}

/** Records one account's answers name and the other's do not: each asked for by the other account and by her. */
export function recordReads(site: Site): RecordRead[] {
  const accounts = site.accounts ?? [];
  const signedIn = accounts.map((a) => a.signedIn);
  if (accounts.length < 2 || signedIn.some((s) => !s)) return [];
  const starts = startReads(site);
  const linksOf = accounts.map((_, as) => new Set(starts.flatMap((start) => recordLinks(site.probes.get(start.probes[as]!.key), site.origin))));
  const reads: RecordRead[] = [];
  for (let owner = 0; owner < accounts.length; owner++) {
    const reader = (owner + 1) % accounts.length;
    const hers = [...linksOf[owner]!].filter((url) => !linksOf[reader]!.has(url)).slice(0, MAX_RECORDS);
    for (const url of hers) {
      const probe = (as: number): ProbeRequest => ({ key: `${CROSS_USER_PAGE_ID}:record:${url}:${as}`, method: 'GET', url, as });
      reads.push({ url, owner, reader, probes: [probe(reader), probe(owner)] });
    }
  }
  return reads;
}

/** The answer with each test account's login set aside (a page says who is signed in). */
const comparable = (body: string, logins: readonly string[]): string => logins.reduce((text, login) => text.split(login).join('<account>'), body).trim();

/** Whether the reader got the owner's record: both read it, and the two answers are the same record. */
export function sameRecord(read: RecordRead, site: Site): { reader: Exchange; owner: Exchange; showsOwner: boolean } | undefined {
  const [asReader, asOwner] = read.probes.map((probe) => site.probes.get(probe.key));
  if (!readable(asReader) || !readable(asOwner) || asReader.body.length === 0) return undefined;
  const logins = (site.accounts ?? []).map((a) => a.login);
  if (comparable(asReader.body, logins) !== comparable(asOwner.body, logins)) return undefined;
  const ownerLogin = site.accounts?.[read.owner]?.login ?? '';
  return { reader: asReader, owner: asOwner, showsOwner: ownerLogin.length > 0 && asReader.body.includes(ownerLogin) };
}
