import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScanProgress } from '../common/scan';
import { FIXTURE_SECRETS } from '../tests/fixtures/sites';
import { findChromium } from './browser';
import { scan } from './scan';

const LOCAL = { allowPrivate: true };
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

/**
 * A site that shows the scanner's HTTP client more than its browser: the session cookie and the bundle holding a live
 * key go only to clients that are not Chromium (as some CDNs and bot rules vary answers by User-Agent).
 */
async function twoFacedSite(): Promise<{ url: string; browserRequests: () => number }> {
  let browserRequests = 0;
  const server = http.createServer((req, res) => {
    const browser = /Chromium/.test(req.headers['user-agent'] ?? '');
    if (browser) browserRequests++;
    if (req.url === '/app.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      return res.end(`export const payments = { key: "${FIXTURE_SECRETS.stripeSecret}" };\n`);
    }
    if (req.url === '/' || req.url === '/index.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...(browser ? {} : { 'set-cookie': 'session=3f9a1c; Path=/' }) });
      return res.end(`<!doctype html><html><head><title>Shop</title>${browser ? '' : '<script type="module" src="/app.js"></script>'}</head><body><h1>Shop</h1></body></html>`);
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('Not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, browserRequests: () => browserRequests };
}

const browser = findChromium();
if (browser.path === null) console.warn(`scan consistency with rendering skipped: ${browser.reason}`);
describe.skipIf(browser.path === null)('scan with rendering keeps what the HTTP pass found', () => {
  it('reports the cookie and the secret only the HTTP pass saw, and reports progress forward only', async () => {
    const site = await twoFacedSite();
    const progress: ScanProgress[] = [];
    const result = await scan(site.url, { maxPages: 3 }, { addressPolicy: LOCAL, onProgress: (update) => progress.push(update) });
    expect(result.rendering.status).toBe('done');
    expect(site.browserRequests()).toBeGreaterThan(0);
    const found = result.findings.map((finding) => `${finding.checkId} ${new URL(finding.url).pathname}`);
    expect(found).toEqual(expect.arrayContaining(['cookie-httponly /', 'secret-in-client /app.js']));
    const phases = progress.map((update) => update.phase);
    expect([...new Set(phases)]).toEqual(['crawl', 'render', 'probe', 'check', 'done']);
  }, 30_000);
});
