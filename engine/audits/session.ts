import type { Browser, BrowserContext, BrowserContextOptions, Page as BrowserPage } from 'playwright-core';
import type { AuditProgress } from '../../common/audits';
import { launchPolicedChromium } from '../browser';
import { urlRefusal } from '../retrieval/address-policy';
import type { AddressPolicy } from '../retrieval/address-policy';
import { USER_AGENT } from '../version';

/** What both browser audits take. */
export interface AuditOptions {
  executablePath: string;
  /** Which addresses the browser may reach; server jobs refuse private ones. */
  policy: AddressPolicy;
  signal?: AbortSignal;
  onProgress?: (progress: AuditProgress) => void;
}

/** Browser audits look at no more pages than this. */
export const MAX_AUDIT_PAGES = 10;
export const PAGE_TIMEOUT_MS = 20_000;

/** An audit that could not run at all (no page to audit, browser did not start); the message is meant for the user. */
export class AuditError extends Error {
  constructor(
    readonly code: 'invalid-url' | 'browser' | 'aborted',
    message: string,
  ) {
    super(message);
    this.name = 'AuditError';
  }
}

/** Keeps the http(s) URLs, without duplicates, at most MAX_AUDIT_PAGES; throws when none is left. */
export function auditUrls(urls: readonly string[]): { urls: string[]; warnings: string[] } {
  const warnings: string[] = [];
  const kept: string[] = [];
  for (const raw of urls) {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      warnings.push(`'${raw}' is not a URL and was left out.`);
      continue;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      warnings.push(`${raw} is not an http(s) URL and was left out.`);
      continue;
    }
    url.hash = '';
    if (!kept.includes(url.href)) kept.push(url.href);
  }
  if (kept.length > MAX_AUDIT_PAGES) {
    warnings.push(`${kept.length - MAX_AUDIT_PAGES} pages beyond the first ${MAX_AUDIT_PAGES} were not audited.`);
    kept.length = MAX_AUDIT_PAGES;
  }
  if (kept.length === 0) throw new AuditError('invalid-url', 'There is no http(s) page to audit.');
  return { urls: kept, warnings };
}

/** The policy's verdict on a URL's host (null = allowed): the same gate as rendering. */
export const policyRefusal = urlRefusal;

/**
 * The audits' browser: behind its policy proxy, so every connection a page opens (redirect hops, WebSockets,
 * beacons, prefetches included) passes the address policy; the proxy stops with the browser.
 */
export async function launchAuditBrowser(options: Pick<AuditOptions, 'executablePath' | 'policy'>): Promise<Browser> {
  return (await launchPolicedChromium(options.executablePath, options.policy)).browser;
}

/** A fresh context per page, and what its policy gate saw. */
export interface GatedContext {
  context: BrowserContext;
  /**
   * Set when the page redirected to a refused address. Playwright's route handlers do not see redirect hops
   * (microsoft/playwright#3993, "as designed"); the browser's proxy refuses the hop's connection, and the audit
   * throws the page's results away, so the proxy's refusal page is not measured as the site's.
   */
  refusedRedirect(): string | null;
}

/**
 * A new context whose every http(s) request passes the address policy, as in retrieval/render.ts: a second layer
 * in front of the browser's proxy (see launchAuditBrowser). Refused requests are aborted (net::ERR_BLOCKED_BY_CLIENT),
 * redirects to refused addresses are recorded.
 */
export async function gatedContext(browser: Browser, policy: AddressPolicy, cache: Map<string, string | null>, options: BrowserContextOptions): Promise<GatedContext> {
  const context = await browser.newContext({ ignoreHTTPSErrors: true, userAgent: `${USER_AGENT} Chromium`, serviceWorkers: 'block', ...options });
  let refused: string | null = null;
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    if (!/^https?:/i.test(url)) return route.continue();
    const refusal = await policyRefusal(policy, url, cache);
    return refusal ? route.abort('blockedbyclient') : route.continue();
  });
  if (!policy.allowPrivate) {
    context.on('request', (request) => {
      if (!request.redirectedFrom() || !/^https?:/i.test(request.url())) return;
      void policyRefusal(policy, request.url(), cache).then((refusal) => {
        if (refusal) refused ??= `a redirect led to ${request.url()}: ${refusal}`;
      });
    });
  }
  return { context, refusedRedirect: () => refused };
}

/** Resolves once no request has been in flight for quietMs, or after maxMs. */
export async function networkQuiet(page: BrowserPage, quietMs: number, maxMs: number): Promise<void> {
  let inFlight = 0;
  let quietSince = performance.now();
  const started = performance.now();
  const onRequest = () => inFlight++;
  const onDone = () => {
    inFlight = Math.max(0, inFlight - 1);
    if (inFlight === 0) quietSince = performance.now();
  };
  page.on('request', onRequest);
  page.on('requestfinished', onDone);
  page.on('requestfailed', onDone);
  try {
    while (performance.now() - started < maxMs) {
      if (inFlight === 0 && performance.now() - quietSince >= quietMs) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  } finally {
    page.off('request', onRequest);
    page.off('requestfinished', onDone);
    page.off('requestfailed', onDone);
  }
}

/** The first line of an error, for the report. */
export function errorLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, 500);
}

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
