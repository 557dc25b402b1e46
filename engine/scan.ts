import { createHash } from 'node:crypto';
import { SEVERITY_RANK, scanOptionsSchema, type Finding, type PassedCheck, type ScanOptions, type ScanProgress, type ScanResult } from '../common/scan';
import { maskEvidence } from './analysis/probe-answers';
import { findChromium, type BrowserLookup } from './browser';
import { CHECKS } from './checks/index';
import { LoginWalls, scanCoverage } from './coverage';
import { CheckIsolation, type CheckBudget, type SkippedCheck } from './isolation/isolated-checks';
import { crawl, fetchAssets, normalizePageUrl, type CrawlResult } from './retrieval/crawl';
import { Fetcher } from './retrieval/fetcher';
import { parseHtml } from './retrieval/html';
import { render } from './retrieval/render';
import { countBySeverity, overallScore } from './score/overall';
import { scoreObservatory } from './score/observatory';
import { SessionStore } from './signed-in/session-store';
import { noSignUpReason } from './signed-in/throwaway-reads';
import type { CheckDefinition, Exchange, ProbeRequest, RenderResult, Site, SiteAccount, SiteBeforeProbes } from './types';
import { ENGINE_VERSION } from './version';

import type { AddressPolicy, HostResolver } from './retrieval/address-policy';
import { MAX_SCAN_ACCOUNTS, type ScanAccount } from '../common/scan-accounts';
export type { AddressPolicy };

export interface ScanHooks {
  onProgress?: (progress: ScanProgress) => void;
  signal?: AbortSignal;
  /** Defaults to refusing private addresses; the CLI and the desktop app allow them. */
  addressPolicy?: AddressPolicy;
  /** Browser executable for rendering; undefined = auto-detect, null = do not render. */
  chromiumPath?: string | null;
  /** Called with every HTTP exchange the scan makes, as it finishes. */
  onExchange?: (exchange: Exchange) => void;
  /**
   * Test accounts to sign in as (a signed-in scan). Not a scan option: options are stored with the result, and a
   * password never is.
   */
  accounts?: readonly ScanAccount[];
  /**
   * Why this active scan may not create its throwaway account (a retried attempt of a scan job, whose first attempt
   * may already have made one: one per scan, ever). The rest of active mode runs; the reason goes in the warnings.
   */
  noThrowaway?: string;
  /** Extra certificate authorities to trust (PEM), e.g. an internal CA. */
  trustedCa?: string[];
  /**
   * Tests only: host names the HTTP client connects to at another address and port (a stand-in for a third-party
   * API under its real name, with a certificate from `trustedCa`). Not a scan option: only code calling scan() sets it.
   */
  resolveHost?: HostResolver;
  /** The checks to run (tests and benchmarks); defaults to every registered check. */
  checks?: readonly CheckDefinition[];
  /**
   * Tests only: a module (path) exporting `checks`, where the check worker finds checks that are not in the registry.
   * Check code runs in a worker thread, which cannot receive functions: it loads checks by id from a module.
   */
  checksModule?: string;
  /** Time allowed to check code, per check and for the scan (defaults: DEFAULT_CHECK_BUDGET). */
  checkBudget?: Partial<CheckBudget>;
  /** Awaited before check code runs (true) and after (false): a job marks its scan as checking meanwhile. */
  checking?: (active: boolean) => Promise<void>;
  /** Called when a check's worker is stopped over its budget or dies; the check is skipped and the scan goes on. */
  onCheckWorkerLost?: (skipped: SkippedCheck) => void;
  /**
   * Reproduces the former scan for comparison (benchmarks): a flat rate per host (rateLimit, 10 per second when
   * unset) instead of the adaptive window, and rendering, probing one after the other instead of overlapped.
   */
  baseline?: boolean;
}

export type ScanErrorCode = 'invalid-url' | 'unreachable' | 'address-refused' | 'aborted' | 'checks-stopped';

/** A scan that could not start or finish; the message is meant for the user. */
export class ScanError extends Error {
  constructor(
    readonly code: ScanErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ScanError';
  }
}

const MAX_RENDERED_PAGES = 5;
const MAX_PROBES = 400;
/** The former default rate, used by the baseline scan when none is given. */
const BASELINE_RATE = 10;

/** Adds https:// when the scheme is missing and checks the URL is one we scan. */
export function normalizeTarget(input: string): string {
  const trimmed = input.trim();
  if (!trimmed) throw new ScanError('invalid-url', 'Enter the URL of the site to scan.');
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new ScanError('invalid-url', `'${input}' is not a valid URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ScanError('invalid-url', `Only http and https URLs can be scanned, not ${url.protocol}`);
  if (!url.hostname) throw new ScanError('invalid-url', `'${input}' has no host name.`);
  url.hash = '';
  return url.href;
}

/** Stable across scans: the check, the page (origin + path) and what distinguishes the finding there. */
export function fingerprint(checkId: string, url: string, key = ''): string {
  let location = url;
  try {
    const parsed = new URL(url);
    location = `${parsed.origin}${parsed.pathname}`;
  } catch {
    // keep as given
  }
  return createHash('sha256').update(`${checkId}\n${location}\n${key}`).digest('hex').slice(0, 24);
}

function abortError(): ScanError {
  return new ScanError('aborted', 'The scan was stopped.');
}

type ProgressUpdate = Omit<ScanProgress, 'checksTotal' | 'findings'> & Partial<Pick<ScanProgress, 'findings'>>;

const PHASE_ORDER: Record<ScanProgress['phase'], number> = { crawl: 0, render: 1, probe: 2, check: 3, done: 4 };

/**
 * Progress that only moves forward: phases overlap (rendering starts during the crawl, probes during rendering), but
 * a report never goes back to an earlier phase once a later one was shown.
 */
function forwardProgress(emit: (update: ProgressUpdate) => void): (update: ProgressUpdate) => void {
  let phase = -1;
  return (update) => {
    const rank = PHASE_ORDER[update.phase];
    if (rank < phase) return;
    phase = rank;
    emit(update);
  };
}

const NOT_RENDERED: RenderResult = { status: 'skipped', routes: [], requests: [], cookies: [], storage: [], consoleErrors: [] };

interface RenderingRun {
  /** Hands the crawl's pages to the renderer (once). */
  feed(urls: string[]): void;
  result: Promise<RenderResult>;
}

/** The browser to render with, or why there is none. */
function browserLookup(opts: ScanOptions, hooks: ScanHooks): BrowserLookup | { path: null; reason: string; off: true } {
  if (!opts.render) return { path: null, reason: 'rendering was turned off for this scan', off: true };
  if (hooks.chromiumPath === null) return { path: null, reason: 'no browser was given for rendering' };
  return hooks.chromiumPath ? { path: hooks.chromiumPath, source: 'given' } : findChromium();
}

/** Starts rendering the start page now; the crawl's pages follow when fed. */
function startRendering(
  executablePath: string,
  root: Exchange,
  opts: ScanOptions,
  policy: AddressPolicy,
  hooks: ScanHooks,
  onPage: (done: number, total: number) => void,
): RenderingRun {
  let feed: (urls: string[]) => void = () => undefined;
  const more = new Promise<string[]>((resolve) => (feed = resolve));
  const result = render({
    executablePath,
    urls: [root.finalUrl],
    more,
    maxPages: Math.min(MAX_RENDERED_PAGES, opts.maxPages),
    origin: new URL(root.finalUrl).origin,
    policy,
    signal: hooks.signal,
    onPage,
  });
  return { feed: (urls) => feed(urls), result };
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The crawl's pages and assets in a fixed order (start page first, then by depth and URL; assets by URL): the crawl
 * fetches side by side and lists them as they arrive, and checks that cap a list or keep the first of two places
 * would otherwise report from whichever answered first.
 */
function inStableOrder(crawled: CrawlResult): CrawlResult {
  const [root, ...rest] = crawled.pages;
  const pages = root ? [root, ...rest.sort((a, b) => a.depth - b.depth || byText(a.url, b.url))] : [];
  const assets = [...crawled.assets].sort((a, b) => byText(a.url, b.url) || byText(a.kind, b.kind));
  return { ...crawled, pages, assets };
}

/** Pages of the crawl worth rendering, start page first, the rest in the crawl's fixed order. */
function pagesToRender(crawled: CrawlResult): string[] {
  const htmlPages = crawled.pages.filter((page) => page.html && page.exchange.status < 400).map((page) => page.url);
  return [...new Set([crawled.root.finalUrl, ...htmlPages])];
}

/** Routes and scripts only seen at run time, fetched over HTTP like the rest; they add to what the crawl found. */
async function fetchLateResources(
  fetcher: Fetcher,
  crawled: CrawlResult,
  rendering: RenderResult,
  opts: ScanOptions,
  origin: string,
  signal?: AbortSignal,
): Promise<Pick<Site, 'pages' | 'assets'>> {
  const pages = [...crawled.pages];
  const assets = [...crawled.assets];
  const known = new Set(pages.map((page) => normalizePageUrl(page.url)));
  const newRoutes = rendering.routes.filter((route) => !known.has(normalizePageUrl(route))).slice(0, Math.max(0, opts.maxPages - pages.length));
  const knownAssets = new Set(assets.map((asset) => asset.url));
  const lateScripts = rendering.requests
    .filter((request) => request.resourceType === 'script' && !knownAssets.has(request.url) && request.url.startsWith(origin))
    .map((request) => request.url);
  const fake = {
    url: origin,
    depth: 0,
    source: 'render' as const,
    exchange: crawled.root,
    html: { ...parseHtml('', origin), scripts: [...new Set(lateScripts)].map((src) => ({ src })) },
  };
  const [routeAnswers, lateAssets] = await Promise.all([
    Promise.all(newRoutes.map((route) => fetcher.fetch({ url: route }))),
    lateScripts.length ? fetchAssets(fetcher, [fake], origin, signal) : Promise.resolve([]),
  ]);
  for (const exchange of routeAnswers) {
    if (exchange.status === 0) continue;
    pages.push({
      url: exchange.finalUrl,
      depth: 1,
      source: 'render',
      exchange,
      html: /html/i.test(exchange.contentType) && exchange.body ? parseHtml(exchange.body, exchange.finalUrl) : undefined,
    });
  }
  assets.push(...lateAssets.filter((asset) => !knownAssets.has(asset.url)));
  return { pages, assets };
}

/** The probes the checks ask for, once each by key, read-only unless the scan is active. */
async function planProbes(isolation: CheckIsolation, before: SiteBeforeProbes, warnings: string[] | undefined): Promise<Map<string, ProbeRequest>> {
  const planned = new Map<string, ProbeRequest>();
  for (const [checkId, answer] of await isolation.probes(before)) {
    if (!answer.ok) {
      warnings?.push(`${checkId}: planning its requests failed: ${answer.error}`);
      continue;
    }
    for (const probe of answer.value) {
      if (probe.method === 'POST' && !before.options.active && !probe.readOnly) continue;
      if (!planned.has(probe.key)) planned.set(probe.key, probe);
    }
  }
  return planned;
}

/** The answer to a probe that was not sent (its test account could not sign in). */
function notSent(probe: ProbeRequest, reason: string): Exchange {
  const { method, url } = probe;
  return {
    method,
    url,
    requestHeaders: {},
    finalUrl: url,
    redirects: [],
    status: 0,
    headers: [],
    contentType: '',
    body: '',
    bodyBytes: 0,
    truncated: false,
    timingMs: 0,
    error: reason,
  };
}

/** Sends probes as they are planned, each key once, and keeps their answers. */
class ProbeSender {
  readonly answers = new Map<string, Promise<Exchange>>();
  constructor(
    private readonly fetcher: Fetcher,
    private readonly sessions: SessionStore,
  ) {}

  /** A probe sent as a test account carries its token (masked in the answer kept); the rest go as planned. */
  private fetch(probe: ProbeRequest): Promise<Exchange> {
    const { method, url, headers, body, binary, noRedirect } = probe;
    if (probe.as === undefined) return this.fetcher.fetch({ method, url, headers, body, binary, noRedirect, repeatable: probe.readOnly });
    return this.sessions.authorize(probe).then(async (auth) => {
      if ('error' in auth) return notSent(probe, auth.error);
      return this.sessions.redact(
        await this.fetcher.fetch({ method, url: 'url' in auth && auth.url ? auth.url : url, headers: auth.headers, body, binary, noRedirect, repeatable: probe.readOnly }),
      );
    });
  }

  send(probes: Iterable<ProbeRequest>): void {
    for (const probe of probes) {
      // The plan before rendering and the final one are each within MAX_PROBES; this only bounds their union.
      if (this.answers.has(probe.key) || this.answers.size >= 2 * MAX_PROBES) continue;
      this.answers.set(probe.key, this.fetch(probe));
    }
  }

  /** The answers to the given probes (the final plan), once all have come back. */
  async collect(keys: Iterable<string>): Promise<Map<string, Exchange>> {
    const out = new Map<string, Exchange>();
    for (const key of keys) {
      const answer = this.answers.get(key);
      if (answer) out.set(key, await answer);
    }
    await Promise.all(this.answers.values());
    return out;
  }
}

interface Retrieval {
  target: string;
  opts: ScanOptions;
  hooks: ScanHooks;
  isolation: CheckIsolation;
  policy: AddressPolicy;
  fetcher: Fetcher;
  sessions: SessionStore;
  progress: (update: ProgressUpdate) => void;
  warnings: string[];
  baseline: boolean;
}

/**
 * Everything the checks read: the crawl, the rendering (started on the start page while the crawl goes on), what
 * rendering revealed fetched over HTTP, and the probes (those the HTTP pass calls for sent while the browser works).
 */
async function retrieve(r: Retrieval): Promise<Site> {
  const { target, opts, hooks, isolation, policy, fetcher, sessions, progress, warnings, baseline } = r;
  const lookup = browserLookup(opts, hooks);
  let rendering: RenderingRun | undefined;
  let crawlDone = false;
  const renderCount = { done: 0, total: 1 };
  const onRenderPage = (done: number, total: number) => {
    Object.assign(renderCount, { done, total });
    if (crawlDone) progress({ phase: 'render', pagesDone: done, pagesTotal: total, checksRun: 0 });
  };
  try {
    progress({ phase: 'crawl', pagesDone: 0, pagesTotal: opts.maxPages, checksRun: 0, message: `Fetching ${target}` });
    const crawled = inStableOrder(
      await crawl(fetcher, target, {
        maxPages: opts.maxPages,
        signal: hooks.signal,
        // Chromium starts as soon as the start page answered, while the crawl goes on.
        onRoot: (root) => {
          if (lookup.path !== null && !baseline) rendering = startRendering(lookup.path, root, opts, policy, hooks, onRenderPage);
        },
        onPage: (done, total) => progress({ phase: 'crawl', pagesDone: done, pagesTotal: Math.max(total, done), checksRun: 0 }),
      }),
    );
    crawlDone = true;
    if (hooks.signal?.aborted) throw abortError();
    if (crawled.root.status === 0) {
      const reason = crawled.root.error ?? 'no answer';
      throw new ScanError(/private or loopback/.test(reason) ? 'address-refused' : 'unreachable', `Could not reach ${target}: ${reason}`);
    }
    warnings.push(...crawled.warnings);
    const origin = new URL(crawled.root.finalUrl).origin;
    const toRender = pagesToRender(crawled);
    if (baseline && lookup.path !== null) {
      rendering = startRendering(lookup.path, crawled.root, opts, policy, hooks, onRenderPage);
    }
    rendering?.feed(toRender.slice(1));
    const { root, pages: crawledPages, assets, robots, sitemap, notFound } = crawled;
    const accounts = sessions.siteAccounts();
    const httpOnly: SiteBeforeProbes = {
      target,
      finalUrl: root.finalUrl,
      origin,
      options: opts,
      root,
      pages: crawledPages,
      assets,
      robots,
      sitemap,
      notFound,
      rendering: NOT_RENDERED,
      accounts,
    };
    sessions.useSite(httpOnly, { chromiumPath: lookup.path, policy });
    const sender = new ProbeSender(fetcher, sessions);
    // Probes the HTTP pass already calls for go out while the browser works; the rest once its findings are in.
    if (!baseline) sender.send([...(await planProbes(isolation, httpOnly, undefined)).values()].slice(0, MAX_PROBES));

    let rendered: RenderResult = NOT_RENDERED;
    if (lookup.path === null) rendered = { ...NOT_RENDERED, reason: 'off' in lookup ? lookup.reason : `JavaScript rendering was skipped: ${lookup.reason}` };
    if (rendering) {
      progress({
        phase: 'render',
        pagesDone: renderCount.done,
        pagesTotal: Math.min(toRender.length, MAX_RENDERED_PAGES, opts.maxPages),
        checksRun: 0,
        message: 'Rendering in Chromium',
      });
      rendered = await rendering.result;
      rendering = undefined;
      if (rendered.status === 'failed' && rendered.reason) warnings.push(rendered.reason);
    }
    if (hooks.signal?.aborted) throw abortError();

    const late = await fetchLateResources(fetcher, crawled, rendered, opts, origin, hooks.signal);
    const before: SiteBeforeProbes = { ...httpOnly, ...late, rendering: rendered };
    sessions.useSite(before, { chromiumPath: lookup.path, policy });
    const planned = await planProbes(isolation, before, warnings);
    const probeList = [...planned.values()].slice(0, MAX_PROBES);
    if (planned.size > MAX_PROBES) warnings.push(`${planned.size - MAX_PROBES} planned requests were dropped (limit ${MAX_PROBES}).`);
    progress({ phase: 'probe', pagesDone: before.pages.length, pagesTotal: before.pages.length, checksRun: 0, message: `${probeList.length} probes` });
    sender.send(probeList);
    // Only the final plan's answers reach the checks, so the findings are those of a scan that planned once.
    const probes = await sender.collect(probeList.map((probe) => probe.key));
    if (hooks.signal?.aborted) throw abortError();
    // Rounds of requests that depend on earlier answers (and on who the test accounts signed in as).
    await sendFollowUps({
      isolation,
      sender,
      site: before,
      accounts: () => sessions.siteAccounts(),
      probes,
      active: opts.active,
      budget: MAX_PROBES - probeList.length,
      warnings,
      signal: hooks.signal,
    });
    await sessions.signInUntried();
    return { ...before, probes, accounts: sessions.siteAccounts() };
  } finally {
    // The test accounts' sessions end with the scan's requests, whatever stopped them.
    await sessions.signOutAll();
    // A scan that stops early still waits for its browser to close.
    rendering?.feed([]);
    await rendering?.result.catch(() => undefined);
  }
}

/**
 * Rounds of follow-ups: requests that depend on earlier answers. A backend confirmed by its first answer (a Supabase
 * custom domain) gets its table probes in the next round, and the calls that use what those tables returned in the
 * one after; a round that asks for nothing new ends it. Within what is left of the probe budget.
 */
const MAX_FOLLOW_UP_ROUNDS = 3;

interface FollowUpRun {
  isolation: CheckIsolation;
  sender: ProbeSender;
  site: SiteBeforeProbes;
  /** Who the test accounts are signed in as now (a round's requests may sign one in). */
  accounts: () => SiteAccount[];
  /** The answers so far; each round's are added. */
  probes: Map<string, Exchange>;
  active: boolean;
  budget: number;
  warnings: string[];
  signal?: AbortSignal;
}

async function sendFollowUps(run: FollowUpRun): Promise<void> {
  let budget = run.budget;
  for (let round = 0; round < MAX_FOLLOW_UP_ROUNDS && budget > 0; round++) {
    // A new map each round: analyses computed from one round's answers are not taken for the next's.
    const next = await followUps(run.isolation, { ...run.site, accounts: run.accounts(), probes: new Map(run.probes) }, run.active, budget, run.warnings);
    if (next.length === 0) break;
    budget -= next.length;
    run.sender.send(next);
    for (const [key, answer] of await run.sender.collect(next.map((probe) => probe.key))) run.probes.set(key, answer);
    if (run.signal?.aborted) throw abortError();
  }
}

/** Runs the checks (pure functions over the site, in the check worker); a check that throws becomes a warning. */
async function runChecks(
  checks: readonly CheckDefinition[],
  isolation: CheckIsolation,
  site: Site,
  warnings: string[],
  onCheck: (checksRun: number, findings: number) => void,
): Promise<{ findings: Finding[]; passed: PassedCheck[]; checksRun: number }> {
  const findings: Finding[] = [];
  const passed: PassedCheck[] = [];
  let checksRun = 0;
  const outcomes = await isolation.run(site, () => onCheck(++checksRun, findings.length));
  for (const check of checks) {
    const answer = outcomes.get(check.id);
    if (!answer) continue;
    if (!answer.ok) {
      warnings.push(`${check.id}: the check failed: ${answer.error}`);
      continue;
    }
    if (!answer.value.applies) continue;
    const drafts = answer.value.drafts;
    for (const draft of drafts) {
      findings.push({
        fingerprint: fingerprint(check.id, draft.url, draft.key),
        checkId: check.id,
        family: check.family,
        title: draft.title ?? check.title,
        severity: draft.severity ?? check.severity,
        confidence: draft.confidence ?? check.confidence,
        cwe: check.cwe,
        owasp: check.owasp,
        url: draft.url,
        detail: draft.detail,
        // Every check's evidence passes here: what a check left unmasked (a neighbouring secret) is hidden once for all.
        evidence: maskEvidence(draft.evidence),
        remediation: check.remediation,
        references: check.references,
      });
    }
    if (drafts.length === 0) passed.push({ checkId: check.id, family: check.family, title: check.title });
  }
  // Same fingerprint twice (a check reporting one thing from two places) is one finding.
  const unique = [...new Map(findings.map((finding) => [finding.fingerprint, finding])).values()];
  unique.sort((a, b) => SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] || a.checkId.localeCompare(b.checkId) || a.url.localeCompare(b.url));
  return { findings: unique, passed, checksRun };
}

/** The checks' second-round requests not already answered, read-only unless the scan is active, at most `budget`. */
async function followUps(isolation: CheckIsolation, site: Site, active: boolean, budget: number, warnings: string[]): Promise<ProbeRequest[]> {
  const planned = new Map<string, ProbeRequest>();
  for (const [checkId, answer] of await isolation.followUps(site)) {
    if (!answer.ok) {
      warnings.push(`${checkId}: planning its follow-up requests failed: ${answer.error}`);
      continue;
    }
    for (const probe of answer.value) {
      if (probe.method === 'POST' && !active && !probe.readOnly) continue;
      if (!site.probes.has(probe.key) && !planned.has(probe.key)) planned.set(probe.key, probe);
    }
  }
  return [...planned.values()].slice(0, Math.max(0, budget));
}

/** Scans a site: retrieval, checks, score, result. */
export async function scan(url: string, options: Partial<ScanOptions> = {}, hooks: ScanHooks = {}): Promise<ScanResult> {
  const target = normalizeTarget(url);
  const opts = scanOptionsSchema.parse(options);
  const checks = hooks.checks ?? CHECKS;
  const policy = hooks.addressPolicy ?? { allowPrivate: false };
  const started = new Date();
  const t0 = performance.now();
  const warnings: string[] = [];
  let findingsSoFar = 0;
  const progress = forwardProgress((update) => hooks.onProgress?.({ checksTotal: checks.length, findings: findingsSoFar, ...update }));
  const baseline = hooks.baseline === true;
  const loginWalls = new LoginWalls();

  const fetcher = new Fetcher({
    policy,
    rateLimit: baseline && opts.rateLimit === undefined ? BASELINE_RATE : opts.rateLimit,
    pacing: baseline ? 'flat' : 'adaptive',
    timeoutMs: opts.timeoutMs,
    signal: hooks.signal,
    trustedCa: hooks.trustedCa,
    resolveHost: hooks.resolveHost,
    onExchange: (exchange) => {
      loginWalls.record(exchange);
      // Observers (the server's event log) never see a test account's token or password.
      hooks.onExchange?.(sessions.redact(exchange));
    },
  });
  // Check code reads what the site sent: it runs in a worker thread, within a time budget, never on this thread.
  const sessions = new SessionStore(fetcher, (hooks.accounts ?? []).slice(0, MAX_SCAN_ACCOUNTS));
  // Active scans only: one throwaway account where sign-up is open (never in a passive scan, whatever the site says).
  if (opts.active && hooks.noThrowaway) warnings.push(hooks.noThrowaway);
  else if (opts.active) sessions.allowThrowaway();
  const isolation = new CheckIsolation({ checks, checksModule: hooks.checksModule, budget: hooks.checkBudget, checking: hooks.checking, onWorkerLost: hooks.onCheckWorkerLost });
  try {
    const site = await retrieve({ target, opts, hooks, isolation, policy, fetcher, sessions, progress, warnings, baseline });
    if (hooks.signal?.aborted) throw abortError();
    const pagesTotal = site.pages.length;
    const {
      findings: unique,
      passed,
      checksRun,
    } = await runChecks(checks, isolation, site, warnings, (done, found) => {
      findingsSoFar = found;
      progress({ phase: 'check', pagesDone: pagesTotal, pagesTotal, checksRun: done });
    });
    const checksSkipped = isolation.skippedChecks();
    for (const { checkId, reason } of checksSkipped) warnings.push(`${checkId}: skipped, ${reason}`);

    const { score, grade } = overallScore(unique);
    const headers = scoreObservatory(site);
    const finished = new Date();
    progress({ phase: 'done', pagesDone: site.pages.length, pagesTotal: site.pages.length, checksRun, findings: unique.length });
    return {
      schemaVersion: 1,
      engineVersion: ENGINE_VERSION,
      target: { url: target, finalUrl: site.finalUrl },
      startedAt: started.toISOString(),
      finishedAt: finished.toISOString(),
      durationMs: Math.round(performance.now() - t0),
      options: opts,
      pages: site.pages.map((page) => ({
        url: page.url,
        status: page.exchange.status,
        title: page.html?.title,
        contentType: page.exchange.contentType || undefined,
        depth: page.depth,
        source: page.source,
      })),
      rendering: { status: site.rendering.status, reason: site.rendering.reason, browser: site.rendering.browser },
      score,
      grade,
      headers,
      counts: countBySeverity(unique),
      passed,
      findings: unique,
      warnings,
      coverage: scanCoverage({ site, slowDowns: fetcher.slowDowns, checksSkipped, loginWalls, signIns: sessions.coverage(noSignUpReason(site)) }),
      stats: { requests: fetcher.stats.requests, bytes: fetcher.stats.bytes },
    };
  } finally {
    fetcher.close();
    await isolation.close();
  }
}
