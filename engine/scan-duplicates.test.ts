import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { distinguishingLines, rowText } from '../common/finding-rows';
import { findChromium } from './browser';
import { scan } from './scan';

// One page reached by many addresses (a trailing slash, a query, a fragment, a link in another case of the scheme)
// is one page: its findings are listed once, never once per address the crawl or the browser followed.

const LINKS = ['/about', '/about/', '/about?ref=nav', '/about#team', '/about/?utm_source=mail', 'HTTP://127.0.0.1:PORT/about'];
let server: http.Server;
let url = '';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const port = (server.address() as AddressInfo).port;
    if (path === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(
        `<!doctype html><html><head><title>Shop</title></head><body><h1>Shop</h1>${LINKS.map((link) => `<a href="${link.replace('PORT', String(port))}">About</a>`).join(' ')}</body></html>`,
      );
    }
    if (path === '/about' || path === '/about/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end('<!doctype html><html><head><title>About</title></head><body><!-- TODO: re-enable auth check on /admin before launch --><p>About us</p></body></html>');
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const browser = findChromium();
describe('a page reached by several addresses', () => {
  for (const render of browser.path === null ? [false] : [false, true]) {
    it(`has its findings listed once (${render ? 'with' : 'without'} the browser)`, async () => {
      const result = await scan(url, { maxPages: 10, render, rateLimit: 0 }, { addressPolicy: { allowPrivate: true } });
      const comments = result.findings.filter((finding) => finding.checkId === 'suspicious-comments');
      expect(comments.map((finding) => new URL(finding.url).pathname.replace(/\/$/, ''))).toEqual(['/about']);
      const lines = distinguishingLines(result.findings);
      const rows = result.findings.map((finding) => rowText(finding, lines));
      expect(rows.filter((row, i) => rows.indexOf(row) !== i)).toEqual([]);
    }, 60_000);
  }
});
