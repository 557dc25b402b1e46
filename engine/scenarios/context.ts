import type { Browser, BrowserContext, Page } from 'playwright-core';
import { urlRefusal, type AddressPolicy } from '../retrieval/address-policy';
import { USER_AGENT } from '../version';
import type { RunCollector } from './collector';

/** Spends `rate` tokens a second with a burst of one second's worth: a page's assets load together, the pace holds. */
export class TokenBucket {
  private tokens: number;
  private last = performance.now();
  private readonly capacity: number;

  constructor(private readonly rate: number) {
    this.capacity = Math.max(1, rate);
    this.tokens = this.capacity;
  }

  async take(signal?: AbortSignal): Promise<void> {
    if (this.rate <= 0) return;
    for (;;) {
      const now = performance.now();
      this.tokens = Math.min(this.capacity, this.tokens + ((now - this.last) / 1000) * this.rate);
      this.last = now;
      if (this.tokens >= 1 || signal?.aborted) {
        this.tokens -= 1;
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, ((1 - this.tokens) / this.rate) * 1000));
    }
  }
}

export interface GuardedContextOptions {
  browser: Browser;
  website: string;
  policy: AddressPolicy;
  /** Requests per second to the website; 0 = no limit. */
  rateLimit: number;
  trace?: boolean;
  signal?: AbortSignal;
  /** While this answers true, requests that could change data (any method but GET, HEAD, OPTIONS) are refused. */
  readOnly?: () => boolean;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Every run's context is made alike, so one opened ahead of time serves any run. */
const CONTEXT_OPTIONS = { viewport: { width: 1280, height: 800 }, ignoreHTTPSErrors: true, serviceWorkers: 'block', userAgent: `${USER_AGENT} Chromium` } as const;

/** A blank context, never used, opened with its page ahead of the run that takes it, one per browser. */
const spares = new WeakMap<Browser, Promise<BrowserContext | null>>();

async function openBlank(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext(CONTEXT_OPTIONS);
  try {
    await context.newPage();
    return context;
  } catch (error) {
    await context.close().catch(() => undefined);
    throw error;
  }
}

/**
 * Opens the browser's spare context now, so that the next run starts on a page that exists: starting a page's
 * renderer process is the slowest part of a short run (about a third of a 6-step sign-in on a 2-core machine).
 */
export function prepareSpareContext(browser: Browser): void {
  if (spares.has(browser) || !browser.isConnected()) return;
  spares.set(
    browser,
    openBlank(browser).catch(() => null),
  );
}

/** The spare context if it is ready or on its way (a fresh one otherwise); the next spare starts opening at once. */
async function takeBlankContext(browser: Browser): Promise<BrowserContext> {
  const spare = spares.get(browser);
  spares.delete(browser);
  const taken = spare ? await spare : null;
  prepareSpareContext(browser);
  if (taken && taken.pages().length === 1 && !taken.pages()[0]!.isClosed()) return taken;
  await taken?.close().catch(() => undefined);
  return openBlank(browser);
}

/** The page of a context from openGuardedContext (opened with it). */
export async function firstPage(context: BrowserContext): Promise<Page> {
  return context.pages()[0] ?? (await context.newPage());
}

/**
 * A fresh context with its page (firstPage): the policy's route guard, the rate limit to the website, the
 * collector's listeners, tracing if asked. It is the browser's spare when one is ready; nothing ever ran in it.
 */
export async function openGuardedContext(options: GuardedContextOptions, collector: RunCollector): Promise<BrowserContext> {
  const context = await takeBlankContext(options.browser);
  try {
    const origin = new URL(options.website).origin;
    const bucket = new TokenBucket(options.rateLimit);
    const policyCache = new Map<string, string | null>();
    // The browser's proxy applies the address policy to every connection; this guard refuses early and paces requests.
    // Interception costs a round trip per request, so it is only installed when it has something to do.
    const guarded = !options.policy.allowPrivate || options.rateLimit > 0 || options.readOnly !== undefined;
    if (guarded)
      await context.route('**/*', async (route) => {
        const request = route.request();
        const url = request.url();
        if (!/^https?:/i.test(url)) return route.continue();
        if (await urlRefusal(options.policy, url, policyCache)) return route.abort('blockedbyclient');
        if (options.readOnly?.() && !SAFE_METHODS.has(request.method())) return route.abort('blockedbyclient');
        if (new URL(url).origin === origin) await bucket.take(options.signal);
        return route.continue().catch(() => undefined);
      });
    collector.watchContext(context);
    // DOM snapshots only: they show each step in `npx playwright show-trace`. The screencast's frames cost a third of a
    // run (6-step sign-in, bench:scenarios: 2.2 s with them, 1.65 s without) and picture typed user names, which
    // cannot be masked in an image afterwards; the run's own screenshot masks password fields.
    if (options.trace) await context.tracing.start({ screenshots: false, snapshots: true });
    return context;
  } catch (error) {
    await context.close().catch(() => undefined);
    throw error;
  }
}
