import { createHash } from 'node:crypto';
import {
  SEVERITY_RANK,
  scanOptionsSchema,
  type Finding,
  type PassedCheck,
  type ScanOptions,
  type ScanProgress,
  type ScanResult,
} from '../common/scan';
import { findChromium, type BrowserLookup } from './browser';
import { CHECKS } from './checks/index';
import { crawl, fetchAssets, normalizePageUrl } from './retrieval/crawl';
import { Fetcher } from './retrieval/fetcher';
import { parseHtml } from './retrieval/html';
import { render } from './retrieval/render';
import { countBySeverity, overallScore } from './score/overall';
import { scoreObservatory } from './score/observatory';
import type { CheckDefinition, Exchange, ProbeRequest, RenderResult, Site, SiteBeforeProbes } from './types';
import { ENGINE_VERSION } from './version';

import type { AddressPolicy } from './retrieval/address-policy';
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
  /** Extra certificate authorities to trust (PEM), e.g. an internal CA. */
  trustedCa?: string[];
  /** The checks to run (tests and benchmarks); defaults to every registered check. */
  checks?: readonly CheckDefinition[];
}

export type ScanErrorCode = 'invalid-url' | 'unreachable' | 'address-refused' | 'aborted';

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

/** The checks' second-round requests not already answered, read-only unless the scan is active, at most `budget`. */
function followUps(checks: readonly CheckDefinition[], site: Site, active: boolean, budget: number, warnings: string[]): ProbeRequest[] {
  const planned = new Map<string, ProbeRequest>();
  for (const check of checks) {
    try {
      for (const probe of check.followUpProbes?.(site) ?? []) {
        if (probe.method === 'POST' && !active && !probe.readOnly) continue;
        if (!site.probes.has(probe.key) && !planned.has(probe.key)) planned.set(probe.key, probe);
      }
    } catch (error) {
      warnings.push(`${check.id}: planning its follow-up requests failed: ${(error as Error).message}`);
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
  const progress = (update: Omit<ScanProgress, 'checksTotal' | 'findings'> & Partial<Pick<ScanProgress, 'findings'>>) =>
    hooks.onProgress?.({ checksTotal: checks.length, findings: findingsSoFar, ...update });

  const fetcher = new Fetcher({ policy, rateLimit: opts.rateLimit, timeoutMs: opts.timeoutMs, signal: hooks.signal, trustedCa: hooks.trustedCa, onExchange: hooks.onExchange });
  try {
    progress({ phase: 'crawl', pagesDone: 0, pagesTotal: opts.maxPages, checksRun: 0, message: `Fetching ${target}` });
    const crawled = await crawl(fetcher, target, {
      maxPages: opts.maxPages,
      signal: hooks.signal,
      onPage: (done, total) => progress({ phase: 'crawl', pagesDone: done, pagesTotal: Math.max(total, done), checksRun: 0 }),
    });
    if (hooks.signal?.aborted) throw abortError();
    if (crawled.root.status === 0) {
      const reason = crawled.root.error ?? 'no answer';
      throw new ScanError(/private or loopback/.test(reason) ? 'address-refused' : 'unreachable', `Could not reach ${target}: ${reason}`);
    }
    warnings.push(...crawled.warnings);
    const origin = new URL(crawled.root.finalUrl).origin;

    // Rendering in a headless browser, when asked for and available.
    let rendering: RenderResult = { status: 'skipped', routes: [], requests: [], cookies: [], storage: [], consoleErrors: [] };
    if (!opts.render) {
      rendering.reason = 'rendering was turned off for this scan';
    } else {
      const lookup: BrowserLookup =
        hooks.chromiumPath === null
          ? { path: null, reason: 'no browser was given for rendering' }
          : hooks.chromiumPath
            ? { path: hooks.chromiumPath, source: 'given' }
            : findChromium();
      if (lookup.path === null) {
        rendering.reason = `JavaScript rendering was skipped: ${lookup.reason}`;
      } else {
        const htmlPages = crawled.pages.filter((page) => page.html && page.exchange.status < 400).map((page) => page.url);
        const urls = [...new Set([crawled.root.finalUrl, ...htmlPages])].slice(0, Math.min(MAX_RENDERED_PAGES, opts.maxPages));
        progress({ phase: 'render', pagesDone: 0, pagesTotal: urls.length, checksRun: 0, message: 'Rendering in Chromium' });
        rendering = await render({
          executablePath: lookup.path,
          urls,
          origin,
          policy,
          signal: hooks.signal,
          onPage: (done, total) => progress({ phase: 'render', pagesDone: done, pagesTotal: total, checksRun: 0 }),
        });
        if (rendering.status === 'failed' && rendering.reason) warnings.push(rendering.reason);
      }
    }
    if (hooks.signal?.aborted) throw abortError();

    // Routes and scripts only seen at run time are fetched over HTTP like the rest.
    const pages = [...crawled.pages];
    const assets = [...crawled.assets];
    const known = new Set(pages.map((page) => normalizePageUrl(page.url)));
    const newRoutes = rendering.routes.filter((route) => !known.has(normalizePageUrl(route))).slice(0, Math.max(0, opts.maxPages - pages.length));
    const routeAnswers = await Promise.all(newRoutes.map((route) => fetcher.fetch({ url: route })));
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
    const knownAssets = new Set(assets.map((asset) => asset.url));
    const lateScripts = rendering.requests
      .filter((request) => request.resourceType === 'script' && !knownAssets.has(request.url) && request.url.startsWith(origin))
      .map((request) => request.url);
    if (lateScripts.length) {
      const fake = { url: origin, depth: 0, source: 'render' as const, exchange: crawled.root, html: { ...parseHtml('', origin), scripts: lateScripts.map((src) => ({ src })) } };
      assets.push(...(await fetchAssets(fetcher, [fake], origin, hooks.signal)).filter((asset) => !knownAssets.has(asset.url)));
    }

    const before: SiteBeforeProbes = {
      target,
      finalUrl: crawled.root.finalUrl,
      origin,
      options: opts,
      root: crawled.root,
      pages,
      assets,
      robots: crawled.robots,
      sitemap: crawled.sitemap,
      notFound: crawled.notFound,
      rendering,
    };

    // Probes the checks asked for, once each, read-only unless the scan is active.
    const planned = new Map<string, ProbeRequest>();
    for (const check of checks) {
      try {
        for (const probe of check.probes?.(before) ?? []) {
          if (probe.method === 'POST' && !opts.active && !probe.readOnly) continue;
          if (!planned.has(probe.key)) planned.set(probe.key, probe);
        }
      } catch (error) {
        warnings.push(`${check.id}: planning its requests failed: ${(error as Error).message}`);
      }
    }
    const probeList = [...planned.values()].slice(0, MAX_PROBES);
    if (planned.size > MAX_PROBES) warnings.push(`${planned.size - MAX_PROBES} planned requests were dropped (limit ${MAX_PROBES}).`);
    progress({ phase: 'probe', pagesDone: pages.length, pagesTotal: pages.length, checksRun: 0, message: `${probeList.length} probes` });
    const probes = new Map<string, Exchange>();
    const send = (list: ProbeRequest[]) =>
      Promise.all(
        list.map(async (probe) => {
          probes.set(
            probe.key,
            await fetcher.fetch({ method: probe.method, url: probe.url, headers: probe.headers, body: probe.body, binary: probe.binary, noRedirect: probe.noRedirect }),
          );
        }),
      );
    await send(probeList);
    if (hooks.signal?.aborted) throw abortError();
    // A second round for requests that depend on the first answers, within what is left of the budget.
    await send(followUps(checks, { ...before, probes }, opts.active, MAX_PROBES - probeList.length, warnings));
    if (hooks.signal?.aborted) throw abortError();

    // The checks themselves: pure functions over the site.
    const site: Site = { ...before, probes };
    const findings: Finding[] = [];
    const passed: PassedCheck[] = [];
    let checksRun = 0;
    for (const check of checks) {
      try {
        if (check.appliesTo && !check.appliesTo(site)) continue;
        const drafts = check.run(site);
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
            evidence: draft.evidence,
            remediation: check.remediation,
            references: check.references,
          });
        }
        if (drafts.length === 0) passed.push({ checkId: check.id, family: check.family, title: check.title });
      } catch (error) {
        warnings.push(`${check.id}: the check failed: ${(error as Error).message}`);
      } finally {
        checksRun++;
        findingsSoFar = findings.length;
        progress({ phase: 'check', pagesDone: pages.length, pagesTotal: pages.length, checksRun });
      }
    }

    // Same fingerprint twice (a check reporting one thing from two places) is one finding.
    const unique = [...new Map(findings.map((finding) => [finding.fingerprint, finding])).values()];
    unique.sort((a, b) => SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] || a.checkId.localeCompare(b.checkId) || a.url.localeCompare(b.url));

    const { score, grade } = overallScore(unique);
    const headers = scoreObservatory(site);
    const finished = new Date();
    progress({ phase: 'done', pagesDone: pages.length, pagesTotal: pages.length, checksRun, findings: unique.length });
    return {
      schemaVersion: 1,
      engineVersion: ENGINE_VERSION,
      target: { url: target, finalUrl: crawled.root.finalUrl },
      startedAt: started.toISOString(),
      finishedAt: finished.toISOString(),
      durationMs: Math.round(performance.now() - t0),
      options: opts,
      pages: pages.map((page) => ({
        url: page.url,
        status: page.exchange.status,
        title: page.html?.title,
        contentType: page.exchange.contentType || undefined,
        depth: page.depth,
        source: page.source,
      })),
      rendering: { status: rendering.status, reason: rendering.reason, browser: rendering.browser },
      score,
      grade,
      headers,
      counts: countBySeverity(unique),
      passed,
      findings: unique,
      warnings,
      stats: { ...fetcher.stats },
    };
  } finally {
    fetcher.close();
  }
}
