// When a rendered page has finished what it started: a single-page app loads its entry, then lazy chunks (dynamic
// import()), runs its router, then fires its first data requests, often behind a short timer, an idle callback or a
// session lookup. A fixed network quiet catches that chain only sometimes; this wait follows the chain itself, within
// bounds, so the same page gives the same requests on an idle and on a busy machine.
import type { Page as BrowserPage, Request } from 'playwright-core';

/** Nothing pending for this long (network, timers, idle callbacks, DOM, history) and the page counts as settled. */
export const QUIET_MS = 200;
/** setTimeout delays up to this are waited for (a deferred first query, a splash screen); longer ones are schedules. */
export const SHORT_TIMER_MS = 1_500;
/**
 * Timers, idle callbacks, DOM changes and route changes count only this long after the page's load event: a carousel,
 * a clock or a typing effect re-arms forever, while the work that loads an app's data starts in its first seconds
 * (generous, so a busy machine that runs the same chain several times slower still has it counted).
 */
export const ACTIVITY_HORIZON_MS = 6_000;
/** A request still open after this long is long polling or a stream (SSE, a chunked feed): it stops holding the wait. */
export const LONG_REQUEST_MS = 2_000;
/**
 * The most a page waits after its load event. The longest chain this wait follows (a chunk, a timer of SHORT_TIMER_MS,
 * a session lookup, the query) takes well under a second on an idle machine; eight seconds leaves that chain room on a
 * machine several times slower while a page that never goes quiet (analytics every second, an endless animation of new
 * timers) costs at most this, once per rendered page.
 */
export const SETTLE_MAX_MS = 8_000;
/** Extra quiet after a script arrived: it is compiled and run before it can start anything the page would report. */
const SCRIPT_QUIET_MS = 100;
/** The most a slow page's answers add to the quiet asked for. */
const MAX_LOAD_QUIET_MS = 1_000;
/** The most a slow page's answers stretch the activity horizon and the long-request bound. */
const MAX_LOAD_STRETCH_MS = 4_000;
/** How often the page's state is read while waiting. */
const POLL_MS = 75;
/** DOM changes this long after the app's last timer, response or chunk still count as its work (a router rendering). */
const MUTATION_TAIL_MS = 1_000;
/** fetch/XHR calls a page's recorder keeps. */
const MAX_PAGE_CALLS = 200;
/** Long-lived by nature: never waited for. WebSockets are not requests at all here. */
const NEVER_WAITED = new Set(['eventsource', 'websocket', 'ping', 'media']);

/**
 * Installed before any of the page's scripts: counts the short timers and idle callbacks the app arms early, its
 * fetch/XHR calls in flight, and stamps the last DOM or route change, in `window.__vibeevalActivity`. A timer function
 * armed again (a polling loop, a typing effect) is counted once only: loops are not waited for.
 */
export const ACTIVITY_RECORDER = `(() => {
  if (window.__vibeevalActivity) return;
  const start = performance.now();
  const state = (window.__vibeevalActivity = { timers: new Set(), idle: new Set(), fetches: new Map(), last: start, start });
  // The rendering stretches the horizon when the page answers its polls slowly (a loaded machine runs the same chain slower).
  state.horizon = ${ACTIVITY_HORIZON_MS};
  // Counted from the load event (everything before it counts): a page slow to load does not lose its horizon.
  let loaded = Infinity;
  addEventListener('load', () => { loaded = performance.now(); });
  const early = () => performance.now() - Math.min(loaded, performance.now()) <= state.horizon;
  // Something the app did: a timer or idle callback ran, a chunk or response arrived, the route changed.
  let lastCause = start;
  const touch = () => { if (early()) { lastCause = performance.now(); state.last = lastCause; } };
  // The DOM changing counts only as the tail of such a cause (a router rendering a chunk): a ticking clock does not.
  const mutated = () => { if (performance.now() - lastCause <= ${MUTATION_TAIL_MS}) state.last = performance.now(); };
  const armed = new WeakSet();
  const setT = window.setTimeout, clearT = window.clearTimeout;
  window.setTimeout = function (fn, delay) {
    const ms = Number(delay) || 0;
    if (typeof fn !== 'function' || ms > ${SHORT_TIMER_MS} || !early() || armed.has(fn)) return setT.apply(this, arguments);
    armed.add(fn);
    const args = Array.prototype.slice.call(arguments, 2);
    let id;
    const fire = function () { state.timers.delete(id); touch(); try { return fn.apply(this, args); } finally { touch(); } };
    id = setT.call(this, fire, ms);
    state.timers.add(id);
    return id;
  };
  window.clearTimeout = function (id) { state.timers.delete(id); return clearT.apply(this, arguments); };
  if (typeof window.requestIdleCallback === 'function') {
    const ric = window.requestIdleCallback, cancel = window.cancelIdleCallback;
    window.requestIdleCallback = function (fn, options) {
      if (typeof fn !== 'function' || !early()) return ric.apply(this, arguments);
      let id;
      id = ric.call(this, function () { state.idle.delete(id); touch(); try { return fn.apply(this, arguments); } finally { touch(); } }, options);
      state.idle.add(id);
      return id;
    };
    window.cancelIdleCallback = function (id) { state.idle.delete(id); return cancel.apply(this, arguments); };
  }
  let seq = 0;
  const opened = () => { const id = ++seq; state.fetches.set(id, performance.now()); return () => { state.fetches.delete(id); lastCause = state.last = performance.now(); }; };
  // The calls themselves, as the page made them: the browser's own request events can miss a cross-origin call.
  state.calls = [];
  const note = (kind, method, url, headers) => {
    if (state.calls.length >= ${MAX_PAGE_CALLS}) return;
    try { state.calls.push({ kind, method: String(method || 'GET').toUpperCase(), url: new URL(String(url), location.href).href, headers }); } catch {}
  };
  const headersOf = (init) => { const out = {}; try { new Headers(init || {}).forEach((value, name) => { out[name] = String(value).slice(0, 4000); }); } catch {} return out; };
  if (typeof window.fetch === 'function') {
    const original = window.fetch;
    window.fetch = function (input, init) {
      const request = typeof Request === 'function' && input instanceof Request ? input : undefined;
      note('fetch', (init && init.method) || (request ? request.method : 'GET'), request ? request.url : input, Object.assign(request ? headersOf(request.headers) : {}, headersOf(init && init.headers)));
      const done = opened();
      try {
        const answer = original.apply(this, arguments);
        answer.then(done, done);
        return answer;
      } catch (error) { done(); throw error; }
    };
  }
  const xhr = XMLHttpRequest.prototype, xhrOpen = xhr.open, xhrHeader = xhr.setRequestHeader, xhrSend = xhr.send;
  xhr.open = function (method, url) { this.__vibeevalCall = { method, url, headers: {} }; return xhrOpen.apply(this, arguments); };
  xhr.setRequestHeader = function (name, value) { if (this.__vibeevalCall) this.__vibeevalCall.headers[String(name).toLowerCase()] = String(value).slice(0, 4000); return xhrHeader.apply(this, arguments); };
  xhr.send = function () {
    const call = this.__vibeevalCall;
    if (call) note('xhr', call.method, call.url, call.headers);
    const done = opened();
    this.addEventListener('loadend', done, { once: true });
    try { return xhrSend.apply(this, arguments); } catch (error) { done(); throw error; }
  };
  for (const name of ['pushState', 'replaceState']) {
    const original = history[name];
    history[name] = function () { touch(); return original.apply(this, arguments); };
  }
  addEventListener('popstate', touch);
  addEventListener('hashchange', touch);
  try { new MutationObserver(mutated).observe(document, { childList: true, subtree: true, characterData: true }); } catch {}
  // A script or other resource that arrived (a lazy chunk): what it runs next may change the DOM. Beacons are not
  // the app's work, and fetch/XHR answers are counted by the wrappers above (a long poll's answer is not a cause).
  const notCauses = ['beacon', 'fetch', 'xmlhttprequest'];
  try { new PerformanceObserver((list) => { if (list.getEntries().some((e) => !notCauses.includes(e.initiatorType))) touch(); }).observe({ type: 'resource' }); } catch {}
})();`;

/** What the page reports each poll (given the stretch): whether something is pending, and since when nothing changed. */
const activityState = (stretchMs: number) => `(() => {
  const state = window.__vibeevalActivity;
  if (!state) return { pending: 0, quietMs: 0 };
  state.horizon = Math.max(state.horizon, ${ACTIVITY_HORIZON_MS} + ${Math.round(stretchMs)});
  const now = performance.now();
  let fetches = 0;
  for (const started of state.fetches.values()) if (now - started < ${LONG_REQUEST_MS} + ${Math.round(stretchMs)}) fetches++;
  return { pending: state.timers.size + state.idle.size + fetches, quietMs: now - state.last };
})()`;

/** A fetch or XHR call as the page made it. */
export interface PageCall {
  kind: 'fetch' | 'xhr';
  method: string;
  url: string;
  headers: Record<string, string>;
}

/** Read in the page after it settled: the fetch/XHR calls its scripts made. */
export const PAGE_CALLS = `(() => (window.__vibeevalActivity && window.__vibeevalActivity.calls) || [])()`;

export interface SettleTracker {
  /** Resolves once the page has been quiet for QUIET_MS (or SETTLE_MAX_MS after it was called); the ms it waited. */
  settled(): Promise<{ ms: number; capped: boolean }>;
  stop(): void;
}

/**
 * Follows a page's requests from before its navigation (so the chunks a module script imports while the page loads
 * count too) and, with ACTIVITY_RECORDER installed as an init script, what its scripts have pending.
 */
export function trackActivity(page: BrowserPage, clock: () => number = () => performance.now()): SettleTracker {
  const open = new Map<Request, number>();
  let lastNetwork = clock();
  let lastScript = -Infinity;
  /** How long the page took to answer its recent polls (a moving average): how starved its main thread is right now. */
  let pollMs = 0;
  const onRequest = (request: Request) => {
    if (NEVER_WAITED.has(request.resourceType())) return;
    open.set(request, clock());
    lastNetwork = clock();
  };
  const onDone = (request: Request) => {
    if (!open.delete(request)) return;
    lastNetwork = clock();
    if (request.resourceType() === 'script') lastScript = lastNetwork;
  };
  page.on('request', onRequest);
  page.on('requestfinished', onDone);
  page.on('requestfailed', onDone);
  /**
   * The quiet asked for: QUIET_MS, longer after a script arrived (it is compiled and run before it can start anything,
   * which the page cannot report) and longer again when the page answers slowly (a loaded machine stretches every gap).
   */
  const quietNeeded = () => QUIET_MS + Math.min(MAX_LOAD_QUIET_MS, 3 * pollMs);
  /** How much longer a loaded machine may take over the activity horizon and a request before it counts as long. */
  const stretch = () => Math.min(MAX_LOAD_STRETCH_MS, 10 * pollMs);
  const networkBusy = () => {
    const now = clock();
    for (const started of open.values()) if (now - started < LONG_REQUEST_MS + stretch()) return true;
    return now - lastNetwork < quietNeeded() || now - lastScript < SCRIPT_QUIET_MS + quietNeeded();
  };
  const pageBusy = async () => {
    const asked = clock();
    try {
      const state = await page.evaluate<{ pending: number; quietMs: number }>(activityState(stretch()));
      pollMs = (pollMs + (clock() - asked)) / 2;
      return state.pending > 0 || state.quietMs < quietNeeded();
    } catch {
      // A navigation (a redirect to /login) destroyed the context: the new document is just starting.
      return true;
    }
  };
  const settled = async () => {
    const started = clock();
    while (clock() - started < SETTLE_MAX_MS) {
      // The page's own report comes from its main thread, after whatever it had queued: a busy page answers late.
      if (!networkBusy() && !(await pageBusy()) && !networkBusy()) return { ms: Math.round(clock() - started), capped: false };
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    return { ms: Math.round(clock() - started), capped: true };
  };
  const stop = () => {
    page.off('request', onRequest);
    page.off('requestfinished', onDone);
    page.off('requestfailed', onDone);
  };
  return { settled, stop };
}
