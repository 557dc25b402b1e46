import { afterEach, describe, expect, it } from 'vitest';
import { A11Y_LIMITS, accessibilityAuditSchema, type Violation } from '../../common/audits';
import { startFixtureSite, type FixtureSite } from '../../tests/fixtures/sites';
import { findChromium } from '../browser';
import { AXE_TAGS, auditAccessibility, countByImpact, summariseAccessibility } from './accessibility';

const browser = findChromium();
if (browser.path === null) console.log(`accessibility.test.ts: browser tests skipped: ${browser.reason}`);

const violation = (id: string, impact: Violation['impact'], nodeImpacts: Array<Violation['impact'] | null>, nodeCount = nodeImpacts.length): Violation => ({
  id,
  impact,
  help: `${id} help`,
  helpUrl: `https://dequeuniversity.com/rules/axe/4.14/${id}`,
  description: '',
  tags: ['wcag2a'],
  nodeCount,
  nodes: nodeImpacts.map((nodeImpact, i) => ({ target: `#n${i}`, html: '<div></div>', failureSummary: '', impact: nodeImpact })),
});

describe('countByImpact', () => {
  it.each([
    ['no violation', [], { critical: 0, serious: 0, moderate: 0, minor: 0 }],
    ['node impacts win over the rule', [violation('color-contrast', 'serious', ['serious', 'moderate'])], { critical: 0, serious: 1, moderate: 1, minor: 0 }],
    ['a node without impact takes the rule', [violation('label', 'critical', [null])], { critical: 1, serious: 0, moderate: 0, minor: 0 }],
    ['nodes beyond the kept 50 count at the rule', [violation('image-alt', 'critical', ['critical'], 70)], { critical: 70, serious: 0, moderate: 0, minor: 0 }],
  ] as const)('%s', (_name, violations, expected) => {
    expect(countByImpact([...violations])).toEqual(expected);
  });
});

describe('summariseAccessibility', () => {
  it('adds pages up, keeps the worst impact per rule and orders rules by impact then nodes', () => {
    const a = [violation('region', 'moderate', ['moderate', 'moderate', 'moderate']), violation('label', 'critical', ['critical'])];
    const b = [violation('region', 'moderate', ['moderate']), violation('color-contrast', 'serious', ['serious', 'serious'])];
    const page = (violations: Violation[], passes = 10) => ({
      url: 'https://e.example/',
      finalUrl: 'https://e.example/',
      status: 200,
      violations,
      counts: countByImpact(violations),
      passes,
      incomplete: 0,
    });
    const failed = { ...page([], 0), status: 0, error: 'did not load' };
    const summary = summariseAccessibility([page(a), page(b), failed]);
    expect(summary.byImpact).toEqual({ critical: 1, serious: 2, moderate: 4, minor: 0 });
    expect(summary.totalIssues).toBe(7);
    expect(summary.rules.map((r) => [r.id, r.pages, r.nodes])).toEqual([
      ['label', 1, 1],
      ['color-contrast', 1, 2],
      ['region', 2, 4],
    ]);
    expect(summary).toMatchObject({ pagesAudited: 2, pagesFailed: 1 });
  });
});

describe.skipIf(browser.path === null)('auditAccessibility in Chromium', () => {
  let site: FixtureSite | undefined;
  afterEach(async () => {
    await site?.close();
    site = undefined;
  });

  it('finds the known violations of the a11y fixture with their impacts', async () => {
    site = await startFixtureSite('a11y');
    const t0 = performance.now();
    const result = await auditAccessibility([site.url], { executablePath: browser.path!, policy: { allowPrivate: true } });
    console.log(`accessibility audit, 1 page: ${Math.round(performance.now() - t0)} ms`);
    expect(accessibilityAuditSchema.parse(result)).toEqual(result);
    expect(result.tags).toEqual([...AXE_TAGS]);
    expect(result.axeVersion).toBe('4.14.1');
    const page = result.pages[0]!;
    const impacts = Object.fromEntries(page.violations.map((v) => [v.id, v.impact]));
    expect(impacts).toMatchObject({ 'image-alt': 'critical', label: 'critical', 'button-name': 'critical', 'color-contrast': 'serious' });
    const contrast = page.violations.find((v) => v.id === 'color-contrast')!;
    expect(contrast.nodes[0]).toMatchObject({ target: '.faint', html: '<p class="faint">Shelters near you have 42 animals waiting.</p>' });
    expect(contrast.nodes[0]!.failureSummary).toMatch(/insufficient color contrast/);
    expect(contrast.helpUrl).toMatch(/^https:\/\/dequeuniversity\.com\/rules\/axe\/4\.14\/color-contrast/);
    for (const v of page.violations) for (const node of v.nodes) expect(node.html.length).toBeLessThanOrEqual(A11Y_LIMITS.html);
    expect(page.passes).toBeGreaterThan(5);
    expect(result.summary.totalIssues).toBe(page.violations.reduce((sum, v) => sum + v.nodeCount, 0));
    expect(result.summary.byImpact.critical).toBeGreaterThanOrEqual(3);
  });

  it('reports no critical or serious violation on the secure site, whose CSP would block an injected script', async () => {
    site = await startFixtureSite('secure');
    const urls = ['/', '/pricing.html', '/about.html', '/login.html', '/contact.html'].map((path) => `${site!.origin}${path}`);
    const result = await auditAccessibility(urls, { executablePath: browser.path!, policy: { allowPrivate: true } });
    expect(result.summary.pagesAudited).toBe(5);
    for (const page of result.pages) expect(page.passes).toBeGreaterThan(0);
    expect(result.summary.byImpact).toMatchObject({ critical: 0, serious: 0 });
  });

  it('refuses private addresses when the policy says so', async () => {
    site = await startFixtureSite('a11y');
    const result = await auditAccessibility([site.url], { executablePath: browser.path!, policy: { allowPrivate: false } });
    expect(result.pages[0]!.error).toMatch(/ERR_BLOCKED_BY_CLIENT/);
    expect(result.summary).toMatchObject({ pagesAudited: 0, pagesFailed: 1, totalIssues: 0 });
    expect(site.requests).toEqual([]);
  });
});
