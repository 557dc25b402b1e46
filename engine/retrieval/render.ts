import type { Browser, BrowserContext, Page as BrowserPage, Response } from 'playwright-core';
import { launchPolicedChromium } from '../browser';
import type { AddressPolicy } from './address-policy';
import type { RenderResult } from '../types';
import { USER_AGENT } from '../version';
import { isWebhookUrl } from '../secrets/webhooks';
import { urlRefusal } from './address-policy';
import type { PolicyProxy } from './policy-proxy';
import { ACTIVITY_RECORDER, PAGE_CALLS, trackActivity, type PageCall } from './settle';
import { signInTarget } from './sign-in-pages';

/** Distinct requests kept (method, URL and kept headers), the first by URL: which ones does not depend on timing. */
const MAX_REQUESTS = 2_000;
/** Distinct requests recorded before the cut: past this the page is pathological and what is kept is first-come. */
const MAX_RECORDED = 4 * MAX_REQUESTS;
const PAGE_TIMEOUT_MS = 15_000;
/** Request headers worth keeping: they carry API keys the app sends (Supabase's apikey, bearer tokens). */
const KEPT_HEADERS = new Set(['apikey', 'authorization', 'x-api-key', 'x-client-info', 'content-type']);
/** Pages sent to a sign-in page that are kept (the scan renders a few pages; this bounds any other caller). */
const MAX_LOGIN_REDIRECTS = 500;

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
  /** Called when a page has settled (or reached the cap): how long the wait after its load event took. */
  onSettled?: (url: string, waited: { ms: number; capped: boolean }) => void;
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

interface PageState {
  routes: string[];
  /** Where the page's scripts sent the browser by the history API (pushState, replaceState), in order. */
  history: string[];
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
  const history = (window.__vibeevalRoutes || []).slice(0, 50);
  return { routes: [...(window.__vibeevalRoutes || []), location.href, ...links], history, storage, origin: location.origin };
})()`;

type RenderedRequest = RenderResult['requests'][number];

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Only the headers worth keeping, names in lower case, in a fixed order. */
function keptHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers)
      .map(([name, value]): [string, string] => [name.toLowerCase(), value])
      .filter(([name]) => KEPT_HEADERS.has(name))
      .sort(([a], [b]) => byText(a, b)),
  );
}

interface RequestLog {
  /** A fetch/XHR call the page recorded itself (the browser's events can miss a cross-origin one). */
  addPageCalls(calls: PageCall[]): void;
  list(): RenderedRequest[];
}

/**
 * The requests the pages make, each method and URL once, with the headers seen on any of its sends and the status of
 * its first answer. Pages render side by side, so arrival order is luck: nothing kept depends on it (headers merge,
 * the browser's resource type wins over the page's own record) and the list is sorted before it is cut.
 */
function recordRequests(context: BrowserContext): RequestLog {
  const seen = new Map<string, RenderedRequest>();
  const keyOf = new WeakMap<object, string>();
  const add = (method: string, url: string, headers: Record<string, string>, resourceType: string, fromBrowser: boolean) => {
    if (!/^https?:/i.test(url)) return undefined;
    const key = `${method} ${url}`;
    const known = seen.get(key);
    if (known) {
      known.requestHeaders = keptHeaders({ ...known.requestHeaders, ...headers });
      if (fromBrowser) known.resourceType = resourceType;
    } else if (seen.size < MAX_RECORDED) {
      seen.set(key, { url, method, resourceType, requestHeaders: keptHeaders(headers) });
    }
    return key;
  };
  context.on('request', (request) => {
    const key = add(request.method(), request.url(), request.headers(), request.resourceType(), true);
    if (key) keyOf.set(request, key);
  });
  context.on('response', (response) => {
    const key = keyOf.get(response.request());
    const entry = key === undefined ? undefined : seen.get(key);
    if (entry && entry.status === undefined) entry.status = response.status();
  });
  return {
    addPageCalls: (calls) => {
      for (const call of calls) add(call.method, call.url, call.headers, call.kind, false);
    },
    list: () =>
      [...seen.entries()]
        .sort(([a], [b]) => byText(a, b))
        .slice(0, MAX_REQUESTS)
        .map(([, entry]) => entry),
  };
}

/** The same pages give the same lists whichever page finished first: every list in a fixed order. */
function stableOrder(result: RenderResult): RenderResult {
  result.routes.sort(byText);
  result.storage.sort((a, b) => byText(a.origin, b.origin) || byText(a.kind, b.kind) || byText(a.key, b.key));
  result.cookies.sort((a, b) => byText(a.domain, b.domain) || byText(a.path, b.path) || byText(a.name, b.name));
  result.consoleErrors.sort(byText);
  result.loginRedirects?.sort((a, b) => byText(a.url, b.url));
  return result;
}

/** The status of the first answer to a navigation (a server's redirect, where there was one; else the page's own). */
async function firstAnswerStatus(response: Response | null): Promise<number> {
  if (!response) return 0;
  let request = response.request();
  for (let from = request.redirectedFrom(); from; from = from.redirectedFrom()) request = from;
  return (await request.response().catch(() => null))?.status() ?? response.status();
}

/**
 * Loads pages in headless Chromium and records what a single-page app does at run time:
 * routes, the requests it makes (API hosts, Supabase, Firebase), cookies set by scripts, storage.
 * Every connection the browser opens passes the same address policy as the HTTP crawler, in its proxy
 * (see launchPolicedChromium); the route guard below refuses http(s) requests early as a second layer.
 */
export async function render(options: RenderOptions): Promise<RenderResult> {
  const result: RenderResult = { status: 'done', browser: options.executablePath, routes: [], requests: [], cookies: [], storage: [], consoleErrors: [], loginRedirects: [] };
  const loginRedirects = result.loginRedirects!;
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
    await context.addInitScript(ACTIVITY_RECORDER);
    await context.route('**/*', async (route) => {
      const url = route.request().url();
      if (!/^https?:/i.test(url)) return route.continue();
      // A page that pings an automation or chat webhook as it loads would run its owner's workflow: never sent.
      if (isWebhookUrl(url)) return route.abort('blockedbyclient');
      const refusal = await urlRefusal(options.policy, url, policyCache);
      return refusal ? route.abort('blockedbyclient') : route.continue();
    });
    const recorded = recordRequests(context);
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
      const activity = trackActivity(page);
      try {
        const response = await page.goto(url, { waitUntil: 'load', timeout: PAGE_TIMEOUT_MS });
        // A redirect to a refused address: the proxy answered in the site's place, so there is nothing to read.
        if (response?.headers()[proxy.refusalHeader.name] === proxy.refusalHeader.value) {
          throw new Error(`refused by the address policy after a redirect to ${response.url()}`);
        }
        // Let the app's lazy chunks, router and first data requests run their course, within a bounded wait.
        // Awaited on its own line: an optional call (`onSettled?.(…)`) would skip evaluating its arguments.
        const waited = await activity.settled();
        options.onSettled?.(url, waited);
        recorded.addPageCalls(await page.evaluate<PageCall[]>(PAGE_CALLS));
        const found = await page.evaluate<PageState>(PAGE_STATE);
        // A single-page app's protected route answers 200 with its shell; its router then goes to the sign-in page.
        const wall = signInTarget(url, page.url(), found.history);
        if (wall && loginRedirects.length < MAX_LOGIN_REDIRECTS) loginRedirects.push({ url, status: await firstAnswerStatus(response), redirectedTo: wall });
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
        activity.stop();
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
    result.cookies = (await context.cookies()).map(({ name, value, domain, path, secure, httpOnly, sameSite }) => ({ name, value, domain, path, secure, httpOnly, sameSite }));
    for (const refusal of new Map(proxy.refusals.map((item) => [item.target, item])).values()) {
      if (result.consoleErrors.length < 50) result.consoleErrors.push(`address policy refused ${refusal.target}: ${refusal.reason}`);
    }
    result.routes = [...routes];
    result.requests = recorded.list();
    stableOrder(result);
    return result;
  } catch (error) {
    return stableOrder({ ...result, status: 'failed', reason: `rendering failed: ${(error as Error).message.split('\n')[0]}`, routes: [...routes] });
  } finally {
    await context?.close().catch(() => undefined);
    await browser.close().catch(() => undefined);
  }
}
