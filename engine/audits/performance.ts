import type { Browser, CDPSession } from 'playwright-core';
import { RATED_METRICS, rateMetric, type PagePerformance, type PerformanceAuditResult, type Rating, type RatedMetric } from '../../common/audits';
import { ENGINE_VERSION } from '../version';
import { AuditError, PAGE_TIMEOUT_MS, auditUrls, errorLine, gatedContext, launchAuditBrowser, median, networkQuiet, type AuditOptions } from './session';

/** Lighthouse's desktop profile: 1350x940 at device scale 1, no touch. No CPU or network throttling (see the report's method note). */
export const DESKTOP_PROFILE = { width: 1350, height: 940 } as const;
/** After load, late paints and shifts get this long (and the network 300 ms of quiet, at most 3 s). */
const SETTLE_MS = 600;
const QUIET_MS = 300;
const QUIET_MAX_MS = 3_000;

/**
 * Installed before any page script: buffered observers keep the last largest-contentful-paint entry and the
 * largest session window of layout shifts, as web-vitals computes CLS (shifts less than 1 s apart, windows at
 * most 5 s long, shifts right after input left out).
 */
const OBSERVERS = `(() => {
  const m = (window.__vibeevalPerf = { lcp: null, lcpElement: null, cls: 0 });
  const describe = (el, url) => {
    if (url) return String(url).slice(0, 200);
    if (!el || !el.tagName) return null;
    let text = el.tagName.toLowerCase();
    if (el.id) text += '#' + el.id;
    else if (typeof el.className === 'string' && el.className.trim()) text += '.' + el.className.trim().split(/\\s+/).slice(0, 2).join('.');
    return text.slice(0, 200);
  };
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) { m.lcp = entry.startTime; m.lcpElement = describe(entry.element, entry.url); }
    }).observe({ type: 'largest-contentful-paint', buffered: true });
  } catch {}
  let session = 0, first = 0, last = 0;
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        if (entry.hadRecentInput) continue;
        if (session > 0 && entry.startTime - last < 1000 && entry.startTime - first < 5000) { session += entry.value; last = entry.startTime; }
        else { session = entry.value; first = last = entry.startTime; }
        if (session > m.cls) m.cls = session;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  } catch {}
})();`;

interface PageTimings {
  ttfb: number | null;
  server: number | null;
  fcp: number | null;
  lcp: number | null;
  lcpElement: string | null;
  cls: number | null;
  dcl: number | null;
  load: number | null;
}

/** Read in the page after load and the settle time; all times relative to navigation start. */
const READ_TIMINGS = `(() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const fcp = performance.getEntriesByName('first-contentful-paint')[0];
  const m = window.__vibeevalPerf || {};
  const pos = (v) => (typeof v === 'number' && v > 0 ? v : null);
  return {
    ttfb: nav ? pos(nav.responseStart) : null,
    server: nav && nav.responseStart > 0 && nav.requestStart > 0 ? Math.max(0, nav.responseStart - nav.requestStart) : null,
    fcp: fcp ? fcp.startTime : null,
    lcp: pos(m.lcp),
    lcpElement: m.lcpElement ?? null,
    cls: typeof m.cls === 'number' ? m.cls : null,
    dcl: nav ? pos(nav.domContentLoadedEventEnd) : null,
    load: nav ? pos(nav.loadEventEnd) : null,
  };
})()`;

interface NetworkRecord {
  url: string;
  resourceType: string;
  status: number;
  bytes: number;
}

/**
 * Counts requests and bytes through the DevTools protocol: bytes are Network.loadingFinished's encodedDataLength
 * (headers plus compressed body as received, what Lighthouse calls transferSize). Redirect hops count as requests
 * without bytes. Out-of-process (cross-site) iframes have their own DevTools target and are not counted.
 */
async function recordNetwork(cdp: CDPSession): Promise<Map<string, NetworkRecord>> {
  const records = new Map<string, NetworkRecord>();
  let hops = 0;
  cdp.on('Network.requestWillBeSent', (event) => {
    if (!/^https?:/i.test(event.request.url)) return;
    if (event.redirectResponse)
      records.set(`${event.requestId}#${++hops}`, {
        url: records.get(event.requestId)?.url ?? event.request.url,
        resourceType: event.type ?? 'Other',
        status: event.redirectResponse.status,
        bytes: 0,
      });
    records.set(event.requestId, { url: event.request.url, resourceType: event.type ?? 'Other', status: 0, bytes: 0 });
  });
  cdp.on('Network.responseReceived', (event) => {
    const record = records.get(event.requestId);
    if (record) {
      record.status = event.response.status;
      record.resourceType = event.type;
    }
  });
  cdp.on('Network.loadingFinished', (event) => {
    const record = records.get(event.requestId);
    if (record) record.bytes = Math.max(0, Math.round(event.encodedDataLength));
  });
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  return records;
}

function ratingsOf(timings: Pick<PageTimings, 'lcp' | 'fcp' | 'cls' | 'ttfb'>): Record<RatedMetric, Rating | null> {
  const value: Record<RatedMetric, number | null> = { lcp: timings.lcp, fcp: timings.fcp, cls: timings.cls, ttfb: timings.ttfb };
  return Object.fromEntries(RATED_METRICS.map((metric) => [metric, value[metric] === null ? null : rateMetric(metric, value[metric])])) as Record<RatedMetric, Rating | null>;
}

const round = (value: number | null, digits = 0) => (value === null ? null : Number(value.toFixed(digits)));

function failedPage(url: string, error: string, status = 0): PagePerformance {
  return {
    url,
    finalUrl: url,
    status,
    error,
    ttfbMs: null,
    serverMs: null,
    fcpMs: null,
    lcpMs: null,
    lcpElement: null,
    cls: null,
    domContentLoadedMs: null,
    loadMs: null,
    transferBytes: 0,
    requestCount: 0,
    largestRequests: [],
    ratings: { lcp: null, fcp: null, cls: null, ttfb: null },
  };
}

async function measurePage(browser: Browser, url: string, options: AuditOptions, policyCache: Map<string, string | null>): Promise<PagePerformance> {
  const gated = await gatedContext(browser, options.policy, policyCache, {
    viewport: DESKTOP_PROFILE,
    deviceScaleFactor: 1,
    isMobile: false,
    hasTouch: false,
  });
  const { context } = gated;
  const onAbort = () => void context.close().catch(() => undefined);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    await context.addInitScript(OBSERVERS);
    const page = await context.newPage();
    const records = await recordNetwork(await context.newCDPSession(page));
    const response = await page.goto(url, { waitUntil: 'load', timeout: PAGE_TIMEOUT_MS });
    const status = response?.status() ?? 0;
    await Promise.all([networkQuiet(page, QUIET_MS, QUIET_MAX_MS), new Promise((resolve) => setTimeout(resolve, SETTLE_MS))]);
    const timings = await page.evaluate<PageTimings>(READ_TIMINGS);
    const refused = gated.refusedRedirect();
    if (refused) return failedPage(url, `Not measured: ${refused}`);
    const list = [...records.values()];
    const responses = list.filter((record) => record.bytes > 0).sort((a, b) => b.bytes - a.bytes);
    return {
      url,
      finalUrl: page.url(),
      status,
      ...(status >= 400 ? { error: `The page answered ${status}.` } : {}),
      ttfbMs: round(timings.ttfb),
      serverMs: round(timings.server),
      fcpMs: round(timings.fcp),
      lcpMs: round(timings.lcp),
      lcpElement: timings.lcpElement,
      cls: round(timings.cls, 4),
      domContentLoadedMs: round(timings.dcl),
      loadMs: round(timings.load),
      transferBytes: list.reduce((sum, record) => sum + record.bytes, 0),
      requestCount: list.length,
      largestRequests: responses
        .slice(0, 5)
        .map((record) => ({ url: record.url.slice(0, 2_000), resourceType: record.resourceType.toLowerCase(), status: record.status, bytes: record.bytes })),
      ratings: ratingsOf(timings),
    };
  } catch (error) {
    return failedPage(url, options.signal?.aborted ? 'The audit was stopped.' : `The page did not load: ${errorLine(error)}`);
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    await context.close().catch(() => undefined);
  }
}

/** Medians and poor counts across the measured pages; issues are (page, metric) pairs rated poor. */
export function summarisePerformance(pages: readonly PagePerformance[]): PerformanceAuditResult['summary'] {
  const measured = pages.filter((page) => page.fcpMs !== null || page.ttfbMs !== null);
  const values: Record<RatedMetric, number[]> = {
    lcp: measured.flatMap((p) => (p.lcpMs === null ? [] : [p.lcpMs])),
    fcp: measured.flatMap((p) => (p.fcpMs === null ? [] : [p.fcpMs])),
    cls: measured.flatMap((p) => (p.cls === null ? [] : [p.cls])),
    ttfb: measured.flatMap((p) => (p.ttfbMs === null ? [] : [p.ttfbMs])),
  };
  const metric = (name: RatedMetric) => {
    const mid = median(values[name]);
    const value = mid === null ? null : Number(mid.toFixed(name === 'cls' ? 4 : 0));
    return { median: value, rating: value === null ? null : rateMetric(name, value), poorPages: pages.filter((p) => p.ratings[name] === 'poor').length };
  };
  const summary = { lcp: metric('lcp'), fcp: metric('fcp'), cls: metric('cls'), ttfb: metric('ttfb') };
  const bytes = median(measured.map((p) => p.transferBytes));
  const requests = median(measured.map((p) => p.requestCount));
  return {
    pagesMeasured: measured.length,
    pagesFailed: pages.length - measured.length,
    ...summary,
    medianTransferBytes: bytes === null ? null : Math.round(bytes),
    medianRequestCount: requests === null ? null : Math.round(requests),
    totalIssues: RATED_METRICS.reduce((sum, name) => sum + summary[name].poorPages, 0),
  };
}

/**
 * Loads each page (at most 10, one after the other so they do not compete for the CPU) in a fresh Chromium
 * context with the cache disabled, and measures TTFB, FCP, LCP, CLS, DOMContentLoaded, load, bytes and requests.
 */
export async function auditPerformance(urls: string[], options: AuditOptions): Promise<PerformanceAuditResult> {
  const { urls: targets, warnings } = auditUrls(urls);
  const started = new Date();
  const t0 = performance.now();
  let browser: Browser;
  try {
    browser = await launchAuditBrowser(options);
  } catch (error) {
    throw new AuditError('browser', `The browser at ${options.executablePath} did not start: ${errorLine(error)}`);
  }
  const policyCache = new Map<string, string | null>();
  const pages: PagePerformance[] = [];
  try {
    options.onProgress?.({ done: 0, total: targets.length, message: 'Measuring pages in Chromium' });
    for (const url of targets) {
      if (options.signal?.aborted) throw new AuditError('aborted', 'The audit was stopped.');
      pages.push(await measurePage(browser, url, options, policyCache));
      options.onProgress?.({ done: pages.length, total: targets.length, message: url });
    }
    if (options.signal?.aborted) throw new AuditError('aborted', 'The audit was stopped.');
    for (const page of pages) if (page.error) warnings.push(`${page.url}: ${page.error}`);
    return {
      kind: 'performance',
      schemaVersion: 1,
      engineVersion: ENGINE_VERSION,
      target: targets[0]!,
      startedAt: started.toISOString(),
      finishedAt: new Date().toISOString(),
      durationMs: Math.round(performance.now() - t0),
      browser: `Chromium ${browser.version()}`,
      profile: { ...DESKTOP_PROFILE, cache: 'disabled', throttling: 'none' },
      pages,
      summary: summarisePerformance(pages),
      warnings,
    };
  } finally {
    await browser.close().catch(() => undefined);
  }
}
