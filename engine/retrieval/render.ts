import type { Browser, BrowserContext, Page as BrowserPage } from 'playwright-core';
import { launchPolicedChromium } from '../browser';
import type { AddressPolicy } from '../scan';
import type { RenderResult } from '../types';
import { USER_AGENT } from '../version';
import { urlRefusal } from './address-policy';
import type { PolicyProxy } from './policy-proxy';

const MAX_REQUESTS = 2_000;
/** The network counts as settled after this long with no request in flight (networkidle waits a fixed 500 ms). */
const QUIET_MS = 200;
const SETTLE_MAX_MS = 2_500;
const PAGE_TIMEOUT_MS = 15_000;
/** Request headers worth keeping: they carry API keys the app sends (Supabase's apikey, bearer tokens). */
const KEPT_HEADERS = new Set(['apikey', 'authorization', 'x-api-key', 'x-client-info', 'content-type']);

export interface RenderOptions {
  executablePath: string;
  urls: string[];
  origin: string;
  policy: AddressPolicy;
  concurrency?: number;
  /**
   * More pages to render, known later (the crawl's pages while the start page renders already); rendered after
   * `urls`, without duplicates, up to `maxPages` in all.
   */
  more?: Promise<string[]>;
  maxPages?: number;
  signal?: AbortSignal;
  onPage?: (done: number, total: number) => void;
}

/** Records pushState/replaceState targets so client-side routes show up even without links. */
const ROUTE_RECORDER = `(() => {
  const seen = (window.__vibeevalRoutes = window.__vibeevalRoutes || []);
  for (const name of ['pushState', 'replaceState']) {
    const original = history[name];
    history[name] = function (state, title, url) {
      if (url != null) { try { seen.push(new URL(String(url), location.href).href); } catch {} }
      return original.apply(this, arguments);
    };
  }
})();`;


/**
 * Counts a page's requests in flight from before its navigation, so the chunks a module script imports while the
 * page loads are waited for too (a tracker attached after 'load' would miss them and read the DOM too early).
 */
function trackNetwork(page: BrowserPage): { settled(): Promise<void>; stop(): void } {
  let inFlight = 0;
  let quietSince = performance.now();
  const onRequest = () => inFlight++;
  const onDone = () => {
    inFlight = Math.max(0, inFlight - 1);
    if (inFlight === 0) quietSince = performance.now();
  };
  page.on('request', onRequest);
  page.on('requestfinished', onDone);
  page.on('requestfailed', onDone);
  const stop = () => {
    page.off('request', onRequest);
    page.off('requestfinished', onDone);
    page.off('requestfailed', onDone);
  };
  /** Resolves once the page has had no request in flight for QUIET_MS, or after SETTLE_MAX_MS. */
  const settled = async () => {
    const started = performance.now();
    while (performance.now() - started < SETTLE_MAX_MS) {
      if (inFlight === 0 && performance.now() - quietSince >= QUIET_MS) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  return { settled, stop };
}

interface PageState {
  routes: string[];
  storage: Array<{ kind: 'local' | 'session'; key: string; value: string }>;
  origin: string;
}

/** Evaluated in the page: routes seen, links in the rendered DOM, and web storage. */
const PAGE_STATE = `(() => {
  const storage = [];
  for (const [kind, store] of [['local', window.localStorage], ['session', window.sessionStorage]]) {
    try {
      for (let i = 0; i < store.length; i++) {
        const key = store.key(i);
        if (key !== null) storage.push({ kind, key, value: String(store.getItem(key) ?? '').slice(0, 4000) });
      }
    } catch {}
  }
  const links = Array.from(document.querySelectorAll('a[href]'), (a) => a.href);
  return { routes: [...(window.__vibeevalRoutes || []), location.href, ...links], storage, origin: location.origin };
})()`;

/**
 * Loads pages in headless Chromium and records what a single-page app does at run time:
 * routes, the requests it makes (API hosts, Supabase, Firebase), cookies set by scripts, storage.
 * Every connection the browser opens passes the same address policy as the HTTP crawler, in its proxy
 * (see launchPolicedChromium); the route guard below refuses http(s) requests early as a second layer.
 */
export async function render(options: RenderOptions): Promise<RenderResult> {
  const result: RenderResult = { status: 'done', browser: options.executablePath, routes: [], requests: [], cookies: [], storage: [], consoleErrors: [] };
  let browser: Browser | undefined;
  let proxy: PolicyProxy;
  try {
    ({ browser, proxy } = await launchPolicedChromium(options.executablePath, options.policy));
  } catch (error) {
    return { ...result, status: 'failed', reason: `the browser at ${options.executablePath} did not start: ${(error as Error).message.split('\n')[0]}` };
  }
  const routes = new Set<string>();
  const policyCache = new Map<string, string | null>();
  let context: BrowserContext | undefined;
  try {
    context = await browser.newContext({
      ignoreHTTPSErrors: true,
      userAgent: `${USER_AGENT} Chromium`,
      serviceWorkers: 'block',
      viewport: { width: 1280, height: 800 },
    });
    await context.addInitScript(ROUTE_RECORDER);
    await context.route('**/*', async (route) => {
      const url = route.request().url();
      if (!/^https?:/i.test(url)) return route.continue();
      const refusal = await urlRefusal(options.policy, url, policyCache);
      return refusal ? route.abort('blockedbyclient') : route.continue();
    });
    context.on('request', (request) => {
      if (result.requests.length >= MAX_REQUESTS || !/^https?:/i.test(request.url())) return;
      const headers = Object.fromEntries(Object.entries(request.headers()).filter(([name]) => KEPT_HEADERS.has(name.toLowerCase())));
      result.requests.push({ url: request.url(), method: request.method(), resourceType: request.resourceType(), requestHeaders: headers });
    });
    context.on('response', (response) => {
      const entry = result.requests.find((item) => item.url === response.url() && item.status === undefined);
      if (entry) entry.status = response.status();
    });

    const planned = new Set<string>();
    const queue: string[] = [];
    const limit = options.maxPages ?? Infinity;
    const plan = (urls: string[]) => {
      for (const url of urls) {
        if (planned.has(url) || planned.size >= limit) continue;
        planned.add(url);
        queue.push(url);
      }
    };
    plan(options.urls);
    let pending = options.more;
    /** The next page to render; waits for the late list when the first ones are taken. */
    const nextUrl = async (): Promise<string | undefined> => {
      for (;;) {
        const url = queue.shift();
        if (url !== undefined || !pending || options.signal?.aborted) return url;
        const waitingFor = pending;
        const extra = await waitingFor.catch(() => []);
        if (pending === waitingFor) {
          pending = undefined;
          plan(extra);
        }
      }
    };
    let done = 0;
    const visit = async (page: BrowserPage, url: string) => {
      const network = trackNetwork(page);
      try {
        const response = await page.goto(url, { waitUntil: 'load', timeout: PAGE_TIMEOUT_MS });
        // A redirect to a refused address: the proxy answered in the site's place, so there is nothing to read.
        if (response?.headers()[proxy.refusalHeader.name] === proxy.refusalHeader.value) {
          throw new Error(`refused by the address policy after a redirect to ${response.url()}`);
        }
        // Let the app's first data requests start and finish, without waiting for long-polling to go quiet.
        await network.settled();
        const found = await page.evaluate<PageState>(PAGE_STATE);
        for (const route of found.routes) {
          try {
            const parsed = new URL(route);
            parsed.hash = '';
            if (parsed.origin === options.origin) routes.add(parsed.href);
          } catch {
            // ignore
          }
        }
        for (const item of found.storage) {
          if (!result.storage.some((s) => s.origin === found.origin && s.kind === item.kind && s.key === item.key)) result.storage.push({ origin: found.origin, ...item });
        }
      } catch (error) {
        result.consoleErrors.push(`${url}: ${(error as Error).message.split('\n')[0]}`);
      } finally {
        network.stop();
        options.onPage?.(++done, planned.size);
      }
    };
    const workers = Math.max(1, Math.min(options.concurrency ?? 4, options.more ? limit : queue.length));
    await Promise.all(
      Array.from({ length: workers }, async () => {
        let url = await nextUrl();
        if (url === undefined) return;
        const page = await context!.newPage();
        page.on('console', (message) => {
          if (message.type() === 'error' && result.consoleErrors.length < 50) result.consoleErrors.push(message.text().slice(0, 500));
        });
        page.on('pageerror', (error) => {
          if (result.consoleErrors.length < 50) result.consoleErrors.push(error.message.slice(0, 500));
        });
        for (; url !== undefined && !options.signal?.aborted; url = await nextUrl()) await visit(page, url);
        await page.close().catch(() => undefined);
      }),
    );
    for (const cookie of await context.cookies()) {
      result.cookies.push({
        name: cookie.name,
        value: cookie.value,
        domain: cookie.domain,
        path: cookie.path,
        secure: cookie.secure,
        httpOnly: cookie.httpOnly,
        sameSite: cookie.sameSite,
      });
    }
    for (const refusal of new Map(proxy.refusals.map((item) => [item.target, item])).values()) {
      if (result.consoleErrors.length < 50) result.consoleErrors.push(`address policy refused ${refusal.target}: ${refusal.reason}`);
    }
    result.routes = [...routes];
    return result;
  } catch (error) {
    return { ...result, status: 'failed', reason: `rendering failed: ${(error as Error).message.split('\n')[0]}`, routes: [...routes] };
  } finally {
    await context?.close().catch(() => undefined);
    await browser.close().catch(() => undefined);
  }
}
