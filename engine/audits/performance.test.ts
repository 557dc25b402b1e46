import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { METRIC_THRESHOLDS, performanceAuditSchema, rateMetric, type PagePerformance } from '../../common/audits';
import { startFixtureSite, type FixtureSite } from '../../tests/fixtures/sites';
import { findChromium } from '../browser';
import { auditPerformance, summarisePerformance } from './performance';

const browser = findChromium();
if (browser.path === null) console.log(`performance.test.ts: browser tests skipped: ${browser.reason}`);

describe('rateMetric', () => {
  it.each([
    ['lcp', 2_500, 'good'],
    ['lcp', 2_501, 'needs-improvement'],
    ['lcp', 4_000, 'needs-improvement'],
    ['lcp', 4_001, 'poor'],
    ['fcp', 1_800, 'good'],
    ['fcp', 3_001, 'poor'],
    ['cls', 0.1, 'good'],
    ['cls', 0.1001, 'needs-improvement'],
    ['cls', 0.26, 'poor'],
    ['ttfb', 800, 'good'],
    ['ttfb', 1_800, 'needs-improvement'],
    ['ttfb', 1_801, 'poor'],
  ] as const)('%s %d is %s', (metric, value, rating) => {
    expect(rateMetric(metric, value)).toBe(rating);
  });

  it("uses web.dev's thresholds", () => {
    expect(METRIC_THRESHOLDS).toMatchObject({
      lcp: { good: 2_500, poor: 4_000 },
      fcp: { good: 1_800, poor: 3_000 },
      cls: { good: 0.1, poor: 0.25 },
      ttfb: { good: 800, poor: 1_800 },
    });
  });
});

describe('summarisePerformance', () => {
  const page = (lcp: number | null, cls: number | null, bytes = 1_000): PagePerformance => ({
    url: 'https://example.com/',
    finalUrl: 'https://example.com/',
    status: lcp === null ? 0 : 200,
    ttfbMs: lcp === null ? null : 100,
    serverMs: null,
    fcpMs: lcp === null ? null : 200,
    lcpMs: lcp,
    lcpElement: null,
    cls,
    domContentLoadedMs: null,
    loadMs: null,
    transferBytes: bytes,
    requestCount: lcp === null ? 0 : 3,
    largestRequests: [],
    ratings: {
      lcp: lcp === null ? null : rateMetric('lcp', lcp),
      fcp: lcp === null ? null : 'good',
      cls: cls === null ? null : rateMetric('cls', cls),
      ttfb: lcp === null ? null : 'good',
    },
  });

  it('takes medians over measured pages and counts poor (page, metric) pairs as issues', () => {
    const summary = summarisePerformance([page(1_000, 0), page(5_000, 0.3), page(3_000, 0.05, 3_000), page(null, null, 0)]);
    expect(summary.pagesMeasured).toBe(3);
    expect(summary.pagesFailed).toBe(1);
    expect(summary.lcp).toEqual({ median: 3_000, rating: 'needs-improvement', poorPages: 1 });
    expect(summary.cls).toEqual({ median: 0.05, rating: 'good', poorPages: 1 });
    expect(summary.medianTransferBytes).toBe(1_000);
    expect(summary.totalIssues).toBe(2);
  });

  it('has no medians when nothing was measured', () => {
    const summary = summarisePerformance([page(null, null)]);
    expect(summary.lcp).toEqual({ median: null, rating: null, poorPages: 0 });
    expect(summary.medianRequestCount).toBeNull();
  });
});

describe.skipIf(browser.path === null)('auditPerformance in Chromium', () => {
  let site: FixtureSite | undefined;
  let server: http.Server | undefined;
  afterEach(async () => {
    await site?.close();
    site = undefined;
    server?.closeAllConnections();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    server = undefined;
  });

  it('measures a page with a late banner: paints, bytes, requests and a layout shift', async () => {
    site = await startFixtureSite('a11y');
    const progress: string[] = [];
    const t0 = performance.now();
    const result = await auditPerformance([`${site.origin}/perf.html`], {
      executablePath: browser.path!,
      policy: { allowPrivate: true },
      onProgress: (p) => progress.push(`${p.done}/${p.total}`),
    });
    console.log(`performance audit, 1 page: ${Math.round(performance.now() - t0)} ms`);
    expect(performanceAuditSchema.parse(result)).toEqual(result);
    const [page] = result.pages;
    expect(page).toMatchObject({ status: 200, finalUrl: `${site.origin}/perf.html` });
    expect(page!.error).toBeUndefined();
    expect(page!.ttfbMs).toBeGreaterThan(0);
    expect(page!.fcpMs).toBeGreaterThan(0);
    expect(page!.lcpMs).toBeGreaterThanOrEqual(page!.fcpMs!);
    expect(page!.lcpElement).toBeTruthy();
    expect(page!.loadMs).toBeGreaterThanOrEqual(page!.domContentLoadedMs!);
    expect(page!.cls).toBeGreaterThan(0.05);
    expect(page!.ratings.cls).not.toBe('good');
    // The document, its stylesheet and its script at least (plus the browser's favicon request).
    expect(page!.requestCount).toBeGreaterThanOrEqual(3);
    expect(page!.transferBytes).toBeGreaterThan(1_000);
    expect(page!.largestRequests.map((r) => new URL(r.url).pathname)).toEqual(expect.arrayContaining(['/perf.html', '/static/perf.css', '/static/perf.js']));
    expect(page!.largestRequests.find((r) => r.url.endsWith('/perf.html'))).toMatchObject({ resourceType: 'document', status: 200 });
    expect(result.summary.pagesMeasured).toBe(1);
    expect(result.profile).toEqual({ width: 1350, height: 940, cache: 'disabled', throttling: 'none' });
    expect(progress).toEqual(['0/1', '1/1']);
    // The fixture site saw the page fetched, not served from a cache.
    expect(site.requests).toContain('GET /perf.html');
  });

  it('measures the five pages of the secure site (HTTPS, strict CSP) with no layout shift', async () => {
    site = await startFixtureSite('secure');
    const urls = ['/', '/pricing.html', '/about.html', '/login.html', '/contact.html'].map((path) => `${site!.origin}${path}`);
    const t0 = performance.now();
    const result = await auditPerformance(urls, { executablePath: browser.path!, policy: { allowPrivate: true } });
    console.log(`performance audit, 5 pages: ${Math.round(performance.now() - t0)} ms`);
    expect(result.pages).toHaveLength(5);
    expect(result.summary.pagesMeasured).toBe(5);
    for (const page of result.pages) {
      expect(page.status).toBe(200);
      expect(page.fcpMs).toBeGreaterThan(0);
      expect(page.cls).toBeLessThan(0.01);
    }
    expect(result.summary.totalIssues).toBe(0);
  });

  it('stops between pages when aborted', async () => {
    site = await startFixtureSite('a11y');
    const controller = new AbortController();
    const run = auditPerformance([`${site.origin}/perf.html`, site.url], {
      executablePath: browser.path!,
      policy: { allowPrivate: true },
      signal: controller.signal,
      onProgress: (p) => p.done === 1 && controller.abort(),
    });
    await expect(run).rejects.toMatchObject({ name: 'AuditError', code: 'aborted' });
    expect(site.requests).not.toContain('GET /');
  });

  it('refuses private addresses when the policy says so', async () => {
    site = await startFixtureSite('a11y');
    const result = await auditPerformance([`${site.origin}/perf.html`], { executablePath: browser.path!, policy: { allowPrivate: false } });
    expect(result.pages[0]!.error).toMatch(/ERR_BLOCKED_BY_CLIENT/);
    expect(result.summary).toMatchObject({ pagesMeasured: 0, pagesFailed: 1 });
    expect(site.requests).toEqual([]);
  });

  it('throws away a page that redirected to a refused address, whose server never sees the hop', async () => {
    const seen: string[] = [];
    server = http.createServer((req, res) => {
      seen.push(req.url ?? '');
      const { port } = server!.address() as AddressInfo;
      if (req.url === '/go') res.writeHead(302, { location: `http://127.0.0.1:${port}/internal` }).end();
      else res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>internal admin page</h1>');
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    // 'localhost' is allow-listed by name, 127.0.0.1 is not: the redirect hop leaves the allowed hosts.
    const result = await auditPerformance([`http://localhost:${port}/go`], { executablePath: browser.path!, policy: { allowPrivate: false, allowList: ['localhost'] } });
    expect(result.pages[0]!.error).toMatch(/redirect led to http:\/\/127\.0\.0\.1:\d+\/internal/);
    expect(result.pages[0]!.fcpMs).toBeNull();
    // The browser's proxy refuses the hop's connection: the internal page is never requested.
    expect(seen).toEqual(['/go']);
  });
});
