import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startFixtureSite, type FixtureSite } from '../../tests/fixtures/sites';
import { findChromium } from '../browser';
import { render } from './render';
import { LONG_REQUEST_MS, SETTLE_MAX_MS } from './settle';

const browser = findChromium();
if (browser.path === null) console.warn(`render.test.ts skipped: ${browser.reason}`);

let site: FixtureSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

describe.skipIf(browser.path === null)('render', () => {
  it('finds client-side routes, the requests the app makes and its storage', async () => {
    site = await startFixtureSite('spa');
    const result = await render({ executablePath: browser.path!, urls: [site.url], origin: site.origin, policy: { allowPrivate: true } });
    expect(result.status).toBe('done');
    const routes = result.routes.map((route) => new URL(route).pathname).sort();
    expect(routes).toEqual(expect.arrayContaining(['/', '/settings', '/tasks']));
    expect(result.requests.some((request) => request.resourceType === 'script' && request.url.endsWith('/assets/index-B3kq9XzA.js'))).toBe(true);
  });

  it('blocks requests to private addresses when the policy refuses them', async () => {
    site = await startFixtureSite('spa');
    const result = await render({
      executablePath: browser.path!,
      urls: [site.url],
      origin: site.origin,
      policy: { allowPrivate: false },
    });
    // The page itself is refused, so nothing of the app is seen.
    expect(result.routes.map((route) => new URL(route).pathname)).not.toContain('/tasks');
    expect(result.consoleErrors.join('\n')).toMatch(/ERR_BLOCKED_BY_CLIENT/);
  });

  it('never sends a request to an automation or chat webhook, whatever the policy allows', async () => {
    // Reached, it would run the owner's workflow; refused before it leaves the browser (no name lookup, no proxy).
    const hook = 'https://hooks.slack.com/services/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';
    const result = await render({ executablePath: browser.path!, urls: [hook], origin: 'https://hooks.slack.com', policy: { allowPrivate: true } });
    expect(result.consoleErrors.join('\n')).toMatch(/ERR_BLOCKED_BY_CLIENT/);
  });
});

/** A tiny app server on 127.0.0.1: path → [content type, body]; '/poll' and '/events' never finish on their own. */
async function startApp(files: Record<string, [string, string]>): Promise<{ url: string; origin: string; hits: string[]; close(): Promise<void> }> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    hits.push(path);
    if (path === '/poll') return; // long polling: answered only when the server closes
    if (path === '/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: hello\n\n');
      return;
    }
    const file = files[path];
    if (!file) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': file[0] }).end(file[1]);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/`,
    origin,
    hits,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const html = (script: string): [string, string] => [
  'text/html',
  `<!doctype html><html><head><script type="module" src="/main.js"></script></head><body><div id="root"></div></body></html>${script}`,
];
const js = (code: string): [string, string] => ['text/javascript', code];

describe.skipIf(browser.path === null)('render waits for what the page is doing', () => {
  let app: Awaited<ReturnType<typeof startApp>> | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('sees a query fired from a lazy chunk after a timer, an idle callback and a redirect, and records it with its headers', async () => {
    app = await startApp({
      '/': html(''),
      '/main.js': js(`history.replaceState(null,"","/home");requestIdleCallback(()=>import("./page.js").then(m=>m.mount()));`),
      '/page.js': js(
        `export function mount(){setTimeout(()=>fetch("/api/late?x=1",{headers:{apikey:"k-123"}}).then(r=>r.text()).then(t=>{document.getElementById("root").textContent=t}),1000)}`,
      ),
      '/api/late': ['application/json', '[]'],
    });
    const waits: number[] = [];
    const result = await render({
      executablePath: browser.path!,
      urls: [app.url],
      origin: app.origin,
      policy: { allowPrivate: true },
      onSettled: (_url, waited) => waits.push(waited.ms),
    });
    const late = result.requests.find((request) => request.url === `${app!.origin}/api/late?x=1`);
    expect(late?.requestHeaders?.apikey).toBe('k-123');
    expect(result.routes).toContain(`${app.origin}/home`);
    console.log(`settle wait of the late-query page: ${waits.join(', ')} ms`);
  });

  it('does not wait for long polling, an event stream, beacons or a polling loop beyond their bounds', async () => {
    app = await startApp({
      '/': html(''),
      '/main.js': js(
        `fetch("/poll");new EventSource("/events");setInterval(()=>navigator.sendBeacon("/beacon","x"),1000);` +
          `const tick=()=>{document.getElementById("root").textContent=String(Date.now());setTimeout(tick,100)};tick();`,
      ),
      '/beacon': ['text/plain', ''],
    });
    const waits: Array<{ ms: number; capped: boolean }> = [];
    const result = await render({
      executablePath: browser.path!,
      urls: [app.url],
      origin: app.origin,
      policy: { allowPrivate: true },
      onSettled: (_url, waited) => waits.push(waited),
    });
    expect(result.status).toBe('done');
    expect(result.requests.map((request) => new URL(request.url).pathname)).toEqual(expect.arrayContaining(['/poll', '/events']));
    // The long poll stops holding after LONG_REQUEST_MS, the polling loop is one timer function counted once.
    expect(waits).toHaveLength(1);
    expect(waits[0]!.capped).toBe(false);
    expect(waits[0]!.ms).toBeLessThan(LONG_REQUEST_MS + 2_000);
    console.log(`settle wait of the never-quiet page: ${waits[0]!.ms} ms`);
  });

  it('ends a page that keeps starting new short timers at the activity horizon, within the cap', async () => {
    app = await startApp({
      '/': html(''),
      // A carousel written as a React effect: a new closure every 150 ms, each changing the DOM.
      '/main.js': js(`let i=0;const next=()=>{document.getElementById("root").textContent="slide "+(i++);setTimeout(()=>next(),150)};next();`),
    });
    const waits: Array<{ ms: number; capped: boolean }> = [];
    await render({ executablePath: browser.path!, urls: [app.url], origin: app.origin, policy: { allowPrivate: true }, onSettled: (_url, waited) => waits.push(waited) });
    expect(waits[0]!.ms).toBeLessThanOrEqual(SETTLE_MAX_MS + 500);
    expect(waits[0]!.ms).toBeGreaterThan(0);
  });
});
