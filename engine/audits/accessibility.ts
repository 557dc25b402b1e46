import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page as BrowserPage } from 'playwright-core';
import { A11Y_LIMITS, IMPACTS, type AccessibilityAuditResult, type Impact, type ImpactCounts, type PageAccessibility, type Violation } from '../../common/audits';
import { ENGINE_VERSION } from '../version';
import { AuditError, PAGE_TIMEOUT_MS, auditUrls, errorLine, gatedContext, launchAuditBrowser, networkQuiet, type AuditOptions } from './session';

/** WCAG 2.0 and 2.1, levels A and AA, plus Deque's best practices. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] as const;

let axeSource: string | undefined;
/** axe-core's browser bundle, read once from node_modules. */
function loadAxe(): string {
  axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  return axeSource;
}

interface PageRun {
  version: string;
  passes: number;
  incomplete: number;
  violations: Violation[];
}

/**
 * Runs axe in the page and keeps only what the report needs, trimmed in the page so a huge DOM does not travel
 * back whole. Selectors into frames are joined with ' | ', into shadow roots with ' >>> '.
 */
function runAxeScript(): string {
  const options = {
    runOnly: { type: 'tag', values: AXE_TAGS },
    // Passes and incomplete only need counting: one node each is enough.
    resultTypes: ['violations'],
    // A frame where axe could not be injected (an error page, a blocked host) would otherwise hold the run for 60 s.
    frameWaitTime: 3_000,
  };
  const { html, failureSummary, nodesPerViolation } = A11Y_LIMITS;
  return `(async () => {
  const cut = (text, max) => { text = String(text ?? ''); return text.length > max ? text.slice(0, max - 1) + '\u2026' : text; };
  const selector = (target) => (target || []).map((part) => (Array.isArray(part) ? part.join(' >>> ') : String(part))).join(' | ');
  const result = await window.axe.run(document, ${JSON.stringify(options)});
  return {
    version: window.axe.version,
    passes: result.passes.length,
    incomplete: result.incomplete.length,
    violations: result.violations.map((v) => ({
      id: v.id,
      impact: v.impact || 'minor',
      help: v.help,
      helpUrl: v.helpUrl,
      description: v.description,
      tags: v.tags,
      nodeCount: v.nodes.length,
      nodes: v.nodes.slice(0, ${nodesPerViolation}).map((n) => ({
        target: cut(selector(n.target), 1000),
        html: cut(n.html, ${html}),
        failureSummary: cut(n.failureSummary, ${failureSummary}),
        impact: n.impact || null,
      })),
    })),
  };
})()`;
}

export function emptyImpactCounts(): ImpactCounts {
  return { critical: 0, serious: 0, moderate: 0, minor: 0 };
}

/** Violation nodes by impact (a node's own impact when axe gives one, else its rule's). */
export function countByImpact(violations: readonly Violation[]): ImpactCounts {
  const counts = emptyImpactCounts();
  for (const violation of violations) {
    const shown = violation.nodes.map((node) => node.impact ?? violation.impact);
    for (const impact of shown) counts[impact]++;
    // Nodes beyond the kept ones count at the rule's impact.
    counts[violation.impact] += Math.max(0, violation.nodeCount - violation.nodes.length);
  }
  return counts;
}

const IMPACT_RANK: Record<Impact, number> = { critical: 3, serious: 2, moderate: 1, minor: 0 };

/** Violations across pages: by impact, by rule, total nodes. */
export function summariseAccessibility(pages: readonly PageAccessibility[]): AccessibilityAuditResult['summary'] {
  const byImpact = emptyImpactCounts();
  const rules = new Map<string, { id: string; impact: Impact; help: string; pages: number; nodes: number }>();
  for (const page of pages) {
    for (const impact of IMPACTS) byImpact[impact] += page.counts[impact];
    for (const violation of page.violations) {
      const rule = rules.get(violation.id) ?? { id: violation.id, impact: violation.impact, help: violation.help, pages: 0, nodes: 0 };
      rule.pages++;
      rule.nodes += violation.nodeCount;
      if (IMPACT_RANK[violation.impact] > IMPACT_RANK[rule.impact]) rule.impact = violation.impact;
      rules.set(violation.id, rule);
    }
  }
  // A page that answered 404 was still audited; one that never loaded has no rule results at all.
  const audited = pages.filter((page) => page.passes + page.incomplete + page.violations.length > 0).length;
  return {
    pagesAudited: audited,
    pagesFailed: pages.length - audited,
    byImpact,
    rules: [...rules.values()].sort((a, b) => IMPACT_RANK[b.impact] - IMPACT_RANK[a.impact] || b.nodes - a.nodes || a.id.localeCompare(b.id)),
    totalIssues: IMPACTS.reduce((sum, impact) => sum + byImpact[impact], 0),
  };
}

/** axe in every frame it can reach; a frame that refuses (an error page) is left to axe's frame timeout. */
async function injectAxe(page: BrowserPage): Promise<void> {
  const content = loadAxe();
  await page.mainFrame().addScriptTag({ content });
  await Promise.all(
    page
      .frames()
      .filter((frame) => frame !== page.mainFrame())
      .map((frame) => frame.addScriptTag({ content }).catch(() => undefined)),
  );
}

function failedPage(url: string, error: string, status = 0): PageAccessibility {
  return { url, finalUrl: url, status, error, violations: [], counts: emptyImpactCounts(), passes: 0, incomplete: 0 };
}

async function auditPage(browser: Browser, url: string, options: AuditOptions, policyCache: Map<string, string | null>): Promise<{ page: PageAccessibility; version?: string }> {
  // bypassCSP: the page's own CSP (script-src 'self', nonces) would refuse the injected axe script.
  const gated = await gatedContext(browser, options.policy, policyCache, { viewport: { width: 1350, height: 940 }, bypassCSP: true });
  const { context } = gated;
  const onAbort = () => void context.close().catch(() => undefined);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const page = await context.newPage();
    const response = await page.goto(url, { waitUntil: 'load', timeout: PAGE_TIMEOUT_MS });
    const status = response?.status() ?? 0;
    // Single-page apps render after load: give their first data requests time to land.
    await networkQuiet(page, 300, 3_000);
    await injectAxe(page);
    const run = await page.evaluate<PageRun>(runAxeScript());
    const refused = gated.refusedRedirect();
    if (refused) return { page: failedPage(url, `Not audited: ${refused}`) };
    const violations = [...run.violations].sort((a, b) => IMPACT_RANK[b.impact] - IMPACT_RANK[a.impact] || b.nodeCount - a.nodeCount || a.id.localeCompare(b.id));
    return {
      version: run.version,
      page: {
        url,
        finalUrl: page.url(),
        status,
        ...(status >= 400 ? { error: `The page answered ${status}.` } : {}),
        violations,
        counts: countByImpact(violations),
        passes: run.passes,
        incomplete: run.incomplete,
      },
    };
  } catch (error) {
    return { page: failedPage(url, options.signal?.aborted ? 'The audit was stopped.' : `The page could not be audited: ${errorLine(error)}`) };
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    await context.close().catch(() => undefined);
  }
}

/** Runs axe-core (WCAG 2.0/2.1 A and AA, best practices) on each page (at most 10) in a fresh Chromium context. */
export async function auditAccessibility(urls: string[], options: AuditOptions): Promise<AccessibilityAuditResult> {
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
  const pages: PageAccessibility[] = [];
  let axeVersion = '';
  try {
    options.onProgress?.({ done: 0, total: targets.length, message: 'Checking pages with axe-core' });
    for (const url of targets) {
      if (options.signal?.aborted) throw new AuditError('aborted', 'The audit was stopped.');
      const { page, version } = await auditPage(browser, url, options, policyCache);
      pages.push(page);
      axeVersion ||= version ?? '';
      options.onProgress?.({ done: pages.length, total: targets.length, message: url });
    }
    if (options.signal?.aborted) throw new AuditError('aborted', 'The audit was stopped.');
    for (const page of pages) if (page.error) warnings.push(`${page.url}: ${page.error}`);
    return {
      kind: 'accessibility',
      schemaVersion: 1,
      engineVersion: ENGINE_VERSION,
      target: targets[0]!,
      startedAt: started.toISOString(),
      finishedAt: new Date().toISOString(),
      durationMs: Math.round(performance.now() - t0),
      browser: `Chromium ${browser.version()}`,
      axeVersion: axeVersion || (JSON.parse(readFileSync(createRequire(import.meta.url).resolve('axe-core/package.json'), 'utf8')) as { version: string }).version,
      tags: [...AXE_TAGS],
      pages,
      summary: summariseAccessibility(pages),
      warnings,
    };
  } finally {
    await browser.close().catch(() => undefined);
  }
}
