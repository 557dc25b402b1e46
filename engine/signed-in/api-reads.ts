// The reads a signed-in scan makes of the site's own API as each test account: GET on the REST endpoints its bundle
// calls, read-only GraphQL queries its bundle holds (sent with GET), and, once the listings came back, each record id
// one account's listing showed fetched by the other account through the bundle's `/…/${id}` template. Ids come only
// from the accounts' own answers (a few per template), never guessed. Pure: the probes carry `as`, and retrieval adds
// the account's credential for the site (its session token as the bearer) on the main thread.
import { collectApiEndpoints, constantsOf, isProbeablePath, isSiteHost, OPENAPI_PATHS, templatePrefix } from '../analysis/api-surface';
import { analyzeSupabase, projectLabel, supabaseHeaders } from '../analysis/supabase';
import { collectTexts, type TextSource } from '../secrets/scan';
import type { Exchange, ProbeRequest, Site, SiteBeforeProbes } from '../types';
import { recordsOf } from './api-records';

export const API_READ_PREFIX = 'signed-in-api';
/** Endpoints read as each account: the API checks' most specific first, admin routes always. */
const MAX_ENDPOINTS = 12;
const MAX_TEMPLATES = 6;
/** Ids of another account's records fetched per template and reader: enough to prove it, no enumeration. */
export const MAX_IDS = 3;
const MAX_QUERIES = 4;
const MAX_QUERY_LENGTH = 1_500;
/** `query {` openings looked at per text: each is scanned up to MAX_QUERY_LENGTH for its end. */
const MAX_QUERY_STARTS = 50;

/** A path the bundle's role guards or its own name mark as for admins only. */
export const ADMIN_PATH = /(?:^|\/)(?:admin|administrator|superadmin|backoffice)(?:[-_](?:api|panel|area))?(?:\/|$)/i;
/**
 * A role guard in a bundle that decides what renders or runs next: `isAdmin ? …`, `role === "admin" && …`,
 * `hasRole("admin") ? …`. A bare `isAdmin` (a prop, a menu flag) says nothing about the call after it.
 */
export const ADMIN_GUARD = /(?:\bis_?admin|\brole\s{0,3}===?\s{0,3}["'`]admin["'`]|\bhasRole\(\s{0,3}["'`]admin["'`]\s{0,3}\))\s{0,3}(?:\?|&&)/gi;
/** A quoted API path (what a guarded component fetches). */
export const QUOTED_API_PATH = /(["'`])(\/(?:[\w-]{1,40}\/){0,2}(?:api|rest|v\d{1,2})(?:\/[\w.-]{1,60}){1,6})\1/g;
const QUOTED_API_PATH_ONCE = new RegExp(QUOTED_API_PATH.source);
/** How far after a role guard a fetch counts as guarded by it. */
const GUARD_WINDOW = 200;
/** A GraphQL query operation without variables: `query Orders {` or `query {`. */
export const QUERY_START = /\bquery(?:\s{1,4}[A-Za-z_]\w{0,60})?\s{0,4}\{/g;

export interface ApiRead {
  kind: 'rest' | 'graphql';
  url: string;
  /** The path shown in findings (a GraphQL query's first field). */
  name: string;
  admin: boolean;
  /** One probe per test account, in account order. */
  probes: ProbeRequest[];
}

export interface IdRead {
  /** The template's constant part, e.g. https://app.example/api/orders. */
  prefix: string;
  reader: number;
  /** The account the id belongs to or whose listing showed it. */
  owner: number;
  id: string;
  /** Where the id came from, for evidence: the other account's listing, or its sign-in (its user id). */
  learnedFrom: string;
  probe: ProbeRequest;
}

const probeKey = (what: string, as: number, url: string) => `${API_READ_PREFIX}:${what}:${as}:${url}`;

/** Sends through the account's credential for the site; a redirect is the answer (the bearer never follows it). */
function asAccount(what: string, url: string, as: number, headers: Record<string, string> = {}): ProbeRequest {
  return { key: probeKey(what, as, url), method: 'GET', url, headers: { Accept: 'application/json', ...headers }, noRedirect: true, as };
}

/** The first Supabase project with a public key: where the accounts sign in, as the site's own front end does. */
function signInProject(site: SiteBeforeProbes) {
  return analyzeSupabase(site).projects.find((p) => p.keys.length > 0);
}

/** The probe that signs account `as` in (its Supabase user: id and roles), read before the API is. */
export function sessionProbe(site: SiteBeforeProbes, as: number): ProbeRequest | undefined {
  const project = signInProject(site);
  if (!project) return undefined;
  const url = `${project.url}/auth/v1/user`;
  return { key: `${API_READ_PREFIX}:user:${projectLabel(project)}:${as}`, method: 'GET', url, headers: supabaseHeaders(project.keys[0]!), as };
}

const bundleTexts = (site: SiteBeforeProbes): TextSource[] => collectTexts(site).filter((t) => t.kind !== 'storage' && t.kind !== 'request');

/** API paths fetched within reach of a role guard. */
function guardedPaths(site: SiteBeforeProbes): Set<string> {
  const paths = new Set<string>();
  for (const { text } of bundleTexts(site)) {
    for (const guard of text.matchAll(ADMIN_GUARD)) {
      // The first API call in the guarded branch only: what follows it may be outside the branch.
      const first = QUOTED_API_PATH_ONCE.exec(text.slice(guard.index, guard.index + GUARD_WINDOW));
      if (first) paths.add(first[2]!);
      if (paths.size > 20) return paths;
    }
  }
  return paths;
}

const openApiDocs = (site: Site | SiteBeforeProbes): Exchange[] =>
  'probes' in site ? OPENAPI_PATHS.map((path) => site.probes.get(`api-docs:${path}`)).filter((e): e is Exchange => !!e) : [];

/** The REST endpoints read as each account: admin ones first, GraphQL endpoints left to the query reads. */
export function restReads(site: Site | SiteBeforeProbes): ApiRead[] {
  const accounts = site.accounts ?? [];
  if (accounts.length === 0) return [];
  const guarded = guardedPaths(site);
  const endpoints = collectApiEndpoints(site, openApiDocs(site))
    .map((e) => ({ url: e.url, path: new URL(e.url).pathname }))
    .filter((e) => !/\/(?:graphql|gql)$/i.test(e.path))
    .map((e) => ({ ...e, admin: ADMIN_PATH.test(e.path) || guarded.has(e.path) }));
  const ordered = [...endpoints.filter((e) => e.admin), ...endpoints.filter((e) => !e.admin)].slice(0, MAX_ENDPOINTS);
  return ordered.map(({ url, path, admin }) => ({ kind: 'rest', url, name: path, admin, probes: accounts.map((_, as) => asAccount('get', url, as)) }));
}

/** The end of a balanced `{…}` starting at `open`, within MAX_QUERY_LENGTH; -1 when it does not close. */
function closingBrace(text: string, open: number): number {
  let depth = 0;
  const end = Math.min(text.length, open + MAX_QUERY_LENGTH);
  for (let i = open; i < end; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return i;
  }
  return -1;
}

/** Query operations (no variables, no mutations) written in the bundle, whitespace collapsed. */
export function graphqlQueries(texts: readonly string[]): Array<{ name: string; query: string }> {
  const out = new Map<string, { name: string; query: string }>();
  for (const text of texts) {
    let starts = 0;
    for (const m of text.matchAll(QUERY_START)) {
      if (++starts > MAX_QUERY_STARTS) break;
      const open = m.index + m[0].length - 1;
      const close = closingBrace(text, open);
      if (close === -1) continue;
      const query = text
        .slice(m.index, close + 1)
        .replace(/\\n/g, ' ')
        .replace(/\s+/g, ' ');
      // A field-level `$var` (or a fragment spread) needs what the page would fill in: left alone.
      if (query.includes('$') || query.includes('...')) continue;
      // Named after its first field (`orders`): what the records are.
      const name = /^query[^{]{0,80}\{ ?(\w+)/.exec(query)?.[1] ?? 'query';
      if (!out.has(query)) out.set(query, { name, query });
      if (out.size >= MAX_QUERIES) return [...out.values()];
    }
  }
  return [...out.values()];
}

/** GraphQL endpoints the bundle calls (its own host only). */
function graphqlEndpoints(site: Site | SiteBeforeProbes): string[] {
  const urls = collectApiEndpoints(site, openApiDocs(site))
    .map((e) => e.url)
    .filter((url) => /\/(?:graphql|gql)$/i.test(new URL(url).pathname));
  return urls.length > 0 ? urls.slice(0, 2) : [];
}

/** The bundle's GraphQL queries sent as each account (GET: a query only reads; Apollo's CSRF rule wants the header). */
export function graphqlReads(site: Site | SiteBeforeProbes): ApiRead[] {
  const accounts = site.accounts ?? [];
  if (accounts.length === 0) return [];
  const queries = graphqlQueries(bundleTexts(site).map((t) => t.text));
  return graphqlEndpoints(site).flatMap((endpoint) =>
    queries.map(({ name, query }) => {
      const url = `${endpoint}?query=${encodeURIComponent(query)}`;
      return { kind: 'graphql' as const, url, name, admin: false, probes: accounts.map((_, as) => asAccount('graphql', url, as, { 'apollo-require-preflight': 'true' })) };
    }),
  );
}

/** Per text: planning rounds and judging all ask, and a large bundle takes a while to read. */
const templateMemo = new WeakMap<TextSource, string[]>();

/** `…/${id}` templates of one text, as their constant prefix: `/api/orders/${e}`, `${API}/orders/${e}`. */
function templatesIn(source: TextSource): string[] {
  const memo = templateMemo.get(source);
  if (memo) return memo;
  const out: string[] = [];
  let constants: Map<string, string> | undefined;
  for (const m of source.text.matchAll(/`([^`]{1,300})`/g)) {
    const body = m[1]!;
    const open = body.lastIndexOf('${');
    // One id at the very end, right after a slash; before it only text, or a leading constant.
    if (open < 1 || body[open - 1] !== '/' || body.indexOf('}', open) !== body.length - 1) continue;
    const head = body.slice(0, open);
    const lead = head.startsWith('${') ? head.indexOf('}') + 1 : 0;
    if (head.includes('${', lead)) continue;
    if (lead > 0) constants ??= constantsOf(source.text);
    const prefix = templatePrefix(head, constants ?? new Map<string, string>());
    if (prefix && out.length < 50) out.push(prefix);
  }
  templateMemo.set(source, out);
  return out;
}

/** Constant prefixes of `/…/${id}` templates in the bundle, same-site: the routes that fetch one record by its id. */
export function recordTemplates(site: SiteBeforeProbes): string[] {
  const siteHost = new URL(site.origin).host;
  const out = new Set<string>();
  for (const source of bundleTexts(site)) {
    for (const prefix of templatesIn(source)) {
      let url: URL;
      try {
        url = new URL(prefix, site.origin);
      } catch {
        continue;
      }
      if (isSiteHost(url.host, siteHost) && isProbeablePath(url.pathname) && !ADMIN_PATH.test(url.pathname)) out.add(url.origin + url.pathname);
      if (out.size >= MAX_TEMPLATES) return [...out];
    }
  }
  return [...out];
}

const idOf = (record: Record<string, unknown>): string | undefined => {
  const id = record.id ?? record.uuid;
  return (typeof id === 'string' && id.length <= 64) || typeof id === 'number' ? String(id) : undefined;
};

/** Record ids in an account's answer to a listing read. */
export function listedIds(site: Site, probe: ProbeRequest): string[] {
  return recordsOf(site, site.probes.get(probe.key)).flatMap((r) => idOf(r) ?? []);
}

/** Templates keyed by a user's id (`/api/profiles/${id}`, `/api/orders/user/${id}`): the id is the account's own. */
export const USER_KEYED = /^(?:profiles?|users?|user_profiles|accounts?|members?|customers?|people|by[-_]?users?|owners?)$/i;

/**
 * Second round: for each record template, another account's ids fetched as the reader (a few each): its user id where
 * the template is keyed by user, else the ids its listing showed and the reader's did not. Needs two signed-in accounts.
 */
export function idReads(site: Site): IdRead[] {
  const accounts = site.accounts ?? [];
  if (accounts.length < 2 || accounts.some((a) => !a.signedIn)) return [];
  const reads = restReads(site);
  const out: IdRead[] = [];
  const push = (prefix: string, reader: number, owner: number, id: string, learnedFrom: string) =>
    out.push({ prefix, reader, owner, id, learnedFrom, probe: asAccount('id', `${prefix}/${encodeURIComponent(id)}`, reader) });
  for (const prefix of recordTemplates(site)) {
    const byUser = USER_KEYED.test(prefix.slice(prefix.lastIndexOf('/') + 1));
    const listing = reads.find((r) => r.url === prefix);
    const ids = listing?.probes.map((probe) => new Set(listedIds(site, probe)));
    for (let owner = 0; owner < accounts.length; owner++) {
      const reader = (owner + 1) % accounts.length;
      const userId = accounts[owner]!.userId;
      if (byUser && userId) push(prefix, reader, owner, userId, `the user id ${accounts[owner]!.login} signed in with`);
      if (byUser || !ids) continue;
      const theirs = [...ids[owner]!].filter((id) => !ids[reader]!.has(id)).slice(0, MAX_IDS);
      for (const id of theirs) push(prefix, reader, owner, id, `the answer to GET ${prefix} sent as ${accounts[owner]!.login}`);
    }
  }
  return out;
}

/** First round: each account signs in (its Supabase user read), so the API reads of the next round have a session. */
export function sessionProbes(site: SiteBeforeProbes): ProbeRequest[] {
  const accounts = site.accounts ?? [];
  if (accounts.length === 0 || (restReads(site).length === 0 && graphqlReads(site).length === 0)) return [];
  return accounts.flatMap((_, as) => sessionProbe(site, as) ?? []);
}

/** Every read of the site's API as the accounts, once some account signed in. */
export function apiFollowUps(site: Site): ProbeRequest[] {
  if (!(site.accounts ?? []).some((a) => a.signedIn)) return [];
  return [...restReads(site), ...graphqlReads(site)].flatMap((r) => r.probes).concat(idReads(site).map((r) => r.probe));
}
