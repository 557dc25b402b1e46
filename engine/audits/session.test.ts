import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { findChromium } from '../browser';
import { AuditError, auditUrls, gatedContext, launchAuditBrowser, median } from './session';

const chromium = findChromium();
if (chromium.path === null) console.warn(`session.test.ts: browser test skipped: ${chromium.reason}`);

describe('auditUrls', () => {
  it('keeps http(s) pages once each, without fragments, at most ten', () => {
    const urls = Array.from({ length: 12 }, (_, i) => `https://e.example/p${i}`);
    const { urls: kept, warnings } = auditUrls(['https://e.example/p0#top', ...urls, 'ftp://e.example/', 'not a url']);
    expect(kept).toHaveLength(10);
    expect(kept[0]).toBe('https://e.example/p0');
    expect(warnings).toEqual([
      'ftp://e.example/ is not an http(s) URL and was left out.',
      "'not a url' is not a URL and was left out.",
      '2 pages beyond the first 10 were not audited.',
    ]);
  });

  it('refuses an empty list', () => {
    expect(() => auditUrls(['javascript:alert(1)'])).toThrow(AuditError);
  });
});

describe('median', () => {
  it.each([
    [[], null],
    [[3], 3],
    [[5, 1, 3], 3],
    [[4, 1, 3, 2], 2.5],
  ])('%j → %s', (values, expected) => {
    expect(median(values)).toBe(expected);
  });
});

describe.skipIf(chromium.path === null)('the audits browser', () => {
  it('lets a page of an allowed site open no WebSocket or beacon to a private address', async () => {
    let privateConnections = 0;
    const internal = http.createServer((_req, res) => res.end('internal'));
    internal.on('connection', () => privateConnections++);
    internal.on('upgrade', (_req, socket) => socket.destroy());
    await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
    const target = `127.0.0.1:${(internal.address() as AddressInfo).port}`;
    const site = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><h1>site</h1><script>
        const ws = new WebSocket('ws://${target}/ws');
        ws.onerror = ws.onclose = () => { navigator.sendBeacon('http://${target}/beacon', 'x'); window.__done = true; };
      </script>`);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const policy = { allowPrivate: false, allowList: ['localhost'] };
    const browser = await launchAuditBrowser({ executablePath: chromium.path!, policy });
    try {
      const { context } = await gatedContext(browser, policy, new Map(), {});
      const page = await context.newPage();
      await page.goto(`http://localhost:${(site.address() as AddressInfo).port}/`);
      await page.waitForFunction('window.__done === true', undefined, { timeout: 10_000 });
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await page.locator('h1').innerText()).toBe('site');
      expect(privateConnections).toBe(0);
    } finally {
      await browser.close();
      internal.close();
      site.close();
    }
  });
});
