import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleAccessibility, sampleAnalytics, samplePerformance } from '../audits/__fixtures__/samples';
import { findChromium, launchChromium } from '../browser';
import { renderAccessibilityHtml, renderAnalyticsHtml, renderAuditReport, renderPerformanceHtml } from './audit-html';
import { REPORT_CSP } from './document';

const SCREENS = join(__dirname, '..', '..', 'test-results', 'screens');
const lookup = findChromium();
if (lookup.path === null) console.log(`Skipping audit report screenshots: ${lookup.reason}`);

const reports = [
  ['performance', () => renderPerformanceHtml(samplePerformance())],
  ['accessibility', () => renderAccessibilityHtml(sampleAccessibility())],
  ['analytics', () => renderAnalyticsHtml(sampleAnalytics())],
] as const;

describe.each(reports)('%s report HTML', (kind, render) => {
  const html = render();

  it('is self-contained with the strict CSP and nothing to load or run', () => {
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">`);
    expect(html).not.toMatch(/<script|<link|<img|<iframe|@import|url\(/i);
    // Hostile text shows up only escaped, inside text or quoted attribute values.
    expect(html).not.toMatch(/<[a-z][^>"]*\s(src|onerror|onload)=/i);
    expect(html).toContain(`${kind[0]!.toUpperCase()}${kind.slice(1)} Report`);
    expect(html).toContain('<h1>vibeshop.example.com</h1>');
  });
});

describe('performance report', () => {
  const result = samplePerformance();
  const html = renderPerformanceHtml(result);

  it('shows the four rated medians with their ratings, and the poor-metric count', () => {
    expect(html).toContain('Largest Contentful Paint (LCP)');
    expect(html).toContain(`<b>${result.summary.totalIssues}</b><span>Poor metrics</span>`);
    expect(result.summary.totalIssues).toBe(2); // LCP on /, CLS on /products
    expect(html).toContain('<span class="badge rate-needs-improvement">Needs improvement</span>');
    expect(html).toContain('<td class="num rate-poor">4.62 s</td>');
    expect(html).toContain('<td class="num rate-poor">0.310</td>');
  });

  it('escapes page URLs and the LCP element a site controls', () => {
    expect(html).toContain('/about&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('<code>&lt;img src=x onerror=alert(2)&gt;</code>');
  });

  it('explains a page that could not be measured', () => {
    expect(html).toContain('net::ERR_BLOCKED_BY_CLIENT');
    expect(html).toContain('<span>Pages not measured</span>');
  });
});

describe('accessibility report', () => {
  const html = renderAccessibilityHtml(sampleAccessibility());

  it('counts elements by impact and lists rules most severe first', () => {
    expect(html).toContain('<div class="count sev-critical"><b>5</b><span>Critical</span></div>');
    expect(html).toContain('<div class="count sev-high"><b>3</b><span>Serious</span></div>');
    expect(html).toContain('<div class="count sev-medium"><b>2</b><span>Moderate</span></div>');
    const order = ['image-alt', 'label', 'button-name', 'color-contrast', 'heading-order', 'region'].map((id) => html.indexOf(`<span>${id} · on`));
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('renders a violation snippet holding <script> as text', () => {
    expect(html).toContain('<pre>&lt;img src=&quot;/logo.svg&quot;&gt;&lt;script&gt;alert(&quot;xss&quot;)&lt;/script&gt;</pre>');
    expect(html).toContain('<a href="https://dequeuniversity.com/rules/axe/4.14/image-alt?application=axeAPI" rel="noopener noreferrer nofollow">How to fix</a>');
  });

  it('says so when a page has no violation', () => {
    expect(html).toContain('No violation found on this page.');
  });
});

describe('analytics report', () => {
  const result = sampleAnalytics();
  const html = renderAnalyticsHtml(result);

  it('shows totals, a column per day, kinds and top URLs', () => {
    expect(html).toContain(`<b>${result.total}</b><span>Events</span>`);
    expect(html.match(/<div class="col"/g)).toHaveLength(30);
    expect(html).toContain('Form submissions');
    expect(html).toContain('<span>Busiest day: ');
  });

  it('escapes error descriptions and URLs from events', () => {
    expect(html).toContain('(reading &quot;total&quot;) &lt;script&gt;alert(9)&lt;/script&gt;');
    expect(html).not.toContain('<img src=x');
  });
});

describe('renderAuditReport', () => {
  it('renders each kind in each format, checking the result against its schema', () => {
    const perf = samplePerformance();
    expect(renderAuditReport('performance', perf, 'html')).toBe(renderPerformanceHtml(perf));
    expect(JSON.parse(renderAuditReport('performance', perf, 'json'))).toEqual(perf);
    expect(renderAuditReport('accessibility', sampleAccessibility(), 'json').endsWith('}\n')).toBe(true);
    expect(() => renderAuditReport('accessibility', perf, 'html')).toThrow();
  });

  it('performance CSV: one row per page and metric, then medians', () => {
    const perf = samplePerformance();
    const lines = renderAuditReport('performance', perf, 'csv').split('\r\n');
    expect(lines[0]).toBe('page,metric,value,unit,rating');
    expect(lines).toContain('https://vibeshop.example.com/,lcp,4620,ms,poor');
    expect(lines).toContain('(median),cls,0.07,,good');
    expect(lines).toHaveLength(1 + perf.pages.length * 10 + 4 + 1);
  });

  it('accessibility CSV: one row per violation node, quoted and formula-safe', () => {
    const a11y = sampleAccessibility();
    a11y.pages[0]!.violations[0]!.nodes[0]!.html = '=HYPERLINK("https://evil.example")';
    const csv = renderAuditReport('accessibility', a11y, 'csv');
    const nodes = a11y.pages.flatMap((p) => p.violations.flatMap((v) => v.nodes)).length;
    expect(csv.split('\r\n').filter(Boolean)).toHaveLength(1 + nodes);
    expect(csv).toContain(`"'=HYPERLINK(""https://evil.example"")"`);
  });

  it('analytics CSV: one row per kind, URL and day', () => {
    const result = sampleAnalytics();
    const lines = renderAuditReport('analytics', result, 'csv').split('\r\n').filter(Boolean);
    expect(lines[0]).toBe('section,key,count,errors');
    expect(lines).toContain(`kind,error,${result.byKind.error},`);
    expect(lines).toHaveLength(1 + 6 + result.topUrls.length + result.perDay.length);
  });
});

// The node tsconfig has no DOM types: the page functions name the little they use.
type PageGlobals = { document: { documentElement: { scrollWidth: number } } };

describe.skipIf(lookup.path === null)('audit reports in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium(lookup.path!);
    mkdirSync(SCREENS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it.each(reports)('%s: lays out at 1280 and 375 px, runs nothing, loads nothing', async (kind, render) => {
    for (const width of [1280, 375]) {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      const dialogs: string[] = [];
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      const requests: string[] = [];
      page.on('request', (request) => requests.push(request.url()));
      await page.setContent(render(), { waitUntil: 'load' });
      expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      expect(await page.locator('script, img, iframe').count()).toBe(0);
      expect(dialogs).toEqual([]);
      expect(requests.filter((url) => !url.startsWith('about:') && !url.startsWith('data:'))).toEqual([]);
      if (width === 1280) await page.screenshot({ path: join(SCREENS, `report-${kind}.png`), fullPage: true });
      await page.close();
    }
  });
});
