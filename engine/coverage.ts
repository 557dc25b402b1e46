// A scan's coverage: what was fetched and rendered, which backends the app talks to and whether each could be checked,
// which pages need a login, which hosts rate limited the scan, which checks were skipped. It lets a report tell
// "nothing found" from "nothing could be checked".
//
// Everything here is read from what retrieval already holds (pages, assets, the rendering's traffic, the probes'
// URLs and answers): no pattern runs over the sites' texts on this thread, since check code that reads them runs in the
// check worker within a time budget. The backends are therefore those the checks planned requests for (their URLs
// came out of the worker) and those the rendered app called.
import { plural } from '../common/plural';
import { COVERAGE_LIST_LIMIT, type CoverageBackend, type ScanCoverage } from '../common/scan';
import type { SkippedCheck } from './isolation/isolated-checks';
import { normalizePageUrl, parseSitemap } from './retrieval/crawl';
import { isAuthFlowUrl, isLoginUrl } from './retrieval/sign-in-pages';
import type { Exchange, Site } from './types';

export interface CoverageInput {
  site: Site;
  /** Hosts that asked the scan to slow down, with how many answers did (the fetcher's `slowDowns`). */
  slowDowns: ReadonlyMap<string, number>;
  checksSkipped: readonly SkippedCheck[];
  /** The page answers that needed a login, recorded as the scan went (the crawl drops some of them). */
  loginWalls: LoginWalls;
  /** A signed-in scan: how each test account's sign-in went. */
  signIns?: NonNullable<ScanCoverage['signIns']>;
}

/** A list cut at COVERAGE_LIST_LIMIT entries, with the number left out. */
export function capped<T>(items: readonly T[], limit = COVERAGE_LIST_LIMIT): { items: T[]; more: number } {
  return { items: items.slice(0, limit), more: Math.max(0, items.length - limit) };
}

// ---------------------------------------------------------------------------------------------------------------------
// Pages behind a login

/** At most this many answers are kept while the scan runs; a site with more walls than this is summarised by them. */
const MAX_RECORDED_WALLS = 500;

function parseUrl(raw: string): URL | undefined {
  try {
    return new URL(raw);
  } catch {
    return undefined;
  }
}

export { isLoginUrl };

type LoginWall = NonNullable<ScanCoverage['loginRequired']>['items'][number];

/** An answer that says the page needs a login: 401/403, or a redirect to a sign-in page (from a page not of the sign-in flow). */
export function needsLogin(exchange: Exchange): boolean {
  if (exchange.method !== 'GET' || isAuthFlowUrl(exchange.url)) return false;
  if (exchange.status === 401 || exchange.status === 403) return true;
  return exchange.redirects.length > 0 && isLoginUrl(exchange.finalUrl);
}

/** Collects, as the fetcher answers, the requests that met a login wall; `pages()` keeps those that were pages. */
export class LoginWalls {
  private readonly walls: Exchange[] = [];

  /** Called with every exchange of the scan (the fetcher's onExchange). */
  record(exchange: Exchange): void {
    if (this.walls.length < MAX_RECORDED_WALLS && needsLogin(exchange)) this.walls.push(exchange);
  }

  /**
   * The site's pages among them: URLs the crawl or the browser knew as pages (the start URL, links, sitemap entries,
   * routes), not the checks' probes of paths nobody links to. With them, the rendered pages whose app sent the browser
   * to a sign-in page (a single-page app answers 200 with its shell, then its router goes to /login); a page walled
   * both ways is listed once, as HTTP saw it.
   */
  pages(site: Site): LoginWall[] {
    const known = knownPageUrls(site);
    const seen = new Set<string>();
    const out: LoginWall[] = [];
    const add = (wall: LoginWall) => {
      const key = pageKey(wall.url);
      if (!key || !known.has(key) || seen.has(key)) return;
      seen.add(key);
      out.push(wall);
    };
    for (const wall of this.walls) {
      const redirected = wall.redirects.length > 0 && isLoginUrl(wall.finalUrl);
      add({ url: wall.url, status: redirected ? (wall.redirects[0]?.status ?? wall.status) : wall.status, redirectedTo: redirected ? wall.finalUrl : undefined });
    }
    for (const wall of site.rendering.loginRedirects ?? []) add({ ...wall });
    return out.sort((a, b) => a.url.localeCompare(b.url));
  }
}

function pageKey(raw: string): string | undefined {
  try {
    return normalizePageUrl(raw);
  } catch {
    return undefined;
  }
}

function knownPageUrls(site: Site): Set<string> {
  const urls: string[] = [site.target, site.finalUrl, ...site.rendering.routes];
  for (const page of site.pages) urls.push(page.url, page.exchange.url, ...(page.html?.links ?? []));
  if (site.sitemap?.body) urls.push(...parseSitemap(site.sitemap.body).urls);
  const origin = site.origin;
  const keys = new Set<string>();
  for (const url of urls) {
    const key = url.startsWith(origin) ? pageKey(url) : undefined;
    if (key) keys.add(key);
  }
  return keys;
}

// ---------------------------------------------------------------------------------------------------------------------
// Backends

type BackendKind = CoverageBackend['kind'];
const KIND_ORDER: Record<BackendKind, number> = { supabase: 0, firebase: 1, api: 2 };

/** The Firebase project, database or bucket a request goes to. */
function firebaseTarget(url: URL): string {
  const [, version, collection, name] = url.pathname.split('/');
  if (url.hostname === 'firestore.googleapis.com' && version === 'v1' && collection === 'projects' && name) return name;
  if (url.hostname === 'firebasestorage.googleapis.com' && version === 'v0' && collection === 'b' && name) return safeDecode(name);
  return url.origin;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function isFirebaseHost(host: string): boolean {
  return host.endsWith('.firebaseio.com') || host.endsWith('.firebasedatabase.app') || host === 'firestore.googleapis.com' || host === 'firebasestorage.googleapis.com';
}

function isSupabasePath(pathname: string): boolean {
  return pathname.startsWith('/rest/v1/') || pathname.startsWith('/auth/v1/') || pathname.startsWith('/storage/v1/');
}

/** Origins known as Supabase projects: those the Supabase checks probed, and those the app called like one. */
function supabaseOrigins(site: Site): Set<string> {
  const origins = new Set<string>();
  for (const [key, answer] of site.probes) {
    const url = key.startsWith('supabase-') ? parseUrl(answer.url) : undefined;
    if (url) origins.add(url.origin);
  }
  for (const request of site.rendering.requests) {
    const url = parseUrl(request.url);
    if (url && isSupabasePath(url.pathname)) origins.add(url.origin);
  }
  return origins;
}

/**
 * The backend a check's probe goes to, from the check's id (the probe key's prefix) and the URL. API probes count
 * when they go to endpoints the app calls or documents; GraphQL probes of paths guessed on the site itself (and the
 * API-document probes every scan sends) say nothing about a backend. A probe of a Supabase project's origin counts
 * for the project.
 */
function probeBackend(key: string, url: URL, siteOrigin: string, supabase: ReadonlySet<string>): { kind: BackendKind; target: string } | undefined {
  if (key.startsWith('supabase-') || (supabase.has(url.origin) && (key.startsWith('api-') || key.startsWith('graphql-')))) return { kind: 'supabase', target: url.origin };
  if (key.startsWith('firebase-')) return { kind: 'firebase', target: firebaseTarget(url) };
  if (key.startsWith('api-unauthenticated-data:GET:')) return { kind: 'api', target: url.origin };
  if (key.startsWith('graphql-introspection:') && url.origin !== siteOrigin) return { kind: 'api', target: url.origin };
  return undefined;
}

/** The backend a request of the rendered app goes to, or undefined for the site's pages and assets. */
function trafficBackend(url: URL, siteOrigin: string, supabase: ReadonlySet<string>): { kind: BackendKind; target: string } | undefined {
  if (supabase.has(url.origin)) return { kind: 'supabase', target: url.origin };
  if (isFirebaseHost(url.hostname)) return { kind: 'firebase', target: firebaseTarget(url) };
  if (url.origin !== siteOrigin) return { kind: 'api', target: url.origin };
  return undefined;
}

interface BackendTally {
  kind: BackendKind;
  target: string;
  requests: number;
  answered: number;
  /** The first network error of a request that got no answer. */
  error?: string;
  /** Requests of the rendered app to it, and how many of them got an answer. */
  traffic: number;
  trafficAnswered: number;
}

function tallyBackends(site: Site): Map<string, BackendTally> {
  const tallies = new Map<string, BackendTally>();
  const tally = (found: { kind: BackendKind; target: string }): BackendTally => {
    const id = `${found.kind} ${found.target}`;
    let entry = tallies.get(id);
    if (!entry) tallies.set(id, (entry = { ...found, requests: 0, answered: 0, traffic: 0, trafficAnswered: 0 }));
    return entry;
  };
  const supabase = supabaseOrigins(site);
  for (const [key, answer] of site.probes) {
    const url = parseUrl(answer.url);
    const found = url && probeBackend(key, url, site.origin, supabase);
    if (!found) continue;
    const entry = tally(found);
    entry.requests++;
    if (answer.status > 0) entry.answered++;
    else entry.error ??= answer.error;
  }
  for (const request of site.rendering.requests) {
    if (request.resourceType !== 'fetch' && request.resourceType !== 'xhr') continue;
    const url = parseUrl(request.url);
    const found = url && trafficBackend(url, site.origin, supabase);
    if (!found) continue;
    const entry = tally(found);
    entry.traffic++;
    if (request.status !== undefined && request.status > 0) entry.trafficAnswered++;
  }
  return tallies;
}

function describeTally(entry: BackendTally): CoverageBackend {
  const base = { kind: entry.kind, target: entry.target, requests: entry.requests };
  if (entry.requests > 0 && entry.answered === 0) {
    return { ...base, checked: false, reason: `every request failed (${plural(entry.requests, 'request')}): ${entry.error ?? 'no answer'}` };
  }
  if (entry.requests > 0) {
    const failed = entry.requests - entry.answered;
    return { ...base, checked: true, reason: failed ? `${failed} of ${entry.requests} requests got no answer${entry.error ? ` (${entry.error})` : ''}` : undefined };
  }
  if (entry.kind === 'api') return { ...base, checked: false, reason: 'called by the app; another site, not probed' };
  const reason = entry.trafficAnswered ? 'the app called it, but no check could query it (no public key for it was found)' : 'the app called it, but it did not answer';
  return { ...base, checked: false, reason };
}

/**
 * Each backend the checks sent requests to, or the rendered app called, and whether it could be checked: a backend
 * whose every request failed (status 0: DNS, refused, timed out) was not checked, with the error as the reason.
 */
export function backendCoverage(site: Site): CoverageBackend[] {
  return [...tallyBackends(site).values()]
    .map(describeTally)
    .sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || Number(a.checked) - Number(b.checked) || a.target.localeCompare(b.target));
}

/**
 * Whether each Supabase project the scan knows could be checked, from the probes' answers. A small stand-in for the
 * analysis module's reachability of Supabase projects: where that exists, it can replace this.
 */
export function supabaseReachabilityFromProbes(site: Site): CoverageBackend[] {
  return backendCoverage(site).filter((backend) => backend.kind === 'supabase');
}

// ---------------------------------------------------------------------------------------------------------------------
// Rendering and what was fetched

/** A start page that is an app shell: scripts, and at most one link to another page of the site. */
function looksLikeSinglePageApp(site: Site): boolean {
  const start = site.pages.find((page) => page.exchange === site.root) ?? site.pages[0];
  const html = start?.html;
  if (!html || !html.scripts.some((script) => script.src)) return false;
  const internal = html.links.filter((link) => link.startsWith(site.origin) && pageKey(link) !== pageKey(site.finalUrl));
  return internal.length <= 1;
}

function renderingCoverage(site: Site): NonNullable<ScanCoverage['rendering']> {
  const ran = site.rendering.status === 'done';
  const documents = new Set(site.rendering.requests.filter((r) => r.resourceType === 'document' && r.url.startsWith(site.origin)).map((r) => pageKey(r.url)));
  return {
    ran,
    pages: ran ? Math.max(1, documents.size) : 0,
    reason: ran ? undefined : (site.rendering.reason ?? `rendering ${site.rendering.status}`),
    singlePageApp: looksLikeSinglePageApp(site),
  };
}

/** The scan's coverage, for the result. */
export function scanCoverage(input: CoverageInput): ScanCoverage {
  const { site } = input;
  const scripts = site.assets.filter((asset) => asset.kind === 'script');
  const slowed = [...input.slowDowns].map(([host, answers]) => ({ host, answers })).sort((a, b) => b.answers - a.answers || a.host.localeCompare(b.host));
  return {
    checksSkipped: [...input.checksSkipped],
    fetched: { pages: site.pages.length, scripts: scripts.filter((s) => s.exchange.status > 0).length, scriptsFailed: scripts.filter((s) => s.exchange.status === 0).length },
    rendering: renderingCoverage(site),
    backends: capped(backendCoverage(site)),
    loginRequired: capped(input.loginWalls.pages(site)),
    rateLimited: capped(slowed),
    signIns: input.signIns && input.signIns.length > 0 ? [...input.signIns] : undefined,
  };
}
