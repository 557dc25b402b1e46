import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { recheckFinding, recheckStart } from './recheck';
import { scan } from './scan';

const LOCAL = { allowPrivate: true };

/** A small site whose owner fixes things between scans: the CSP header and the exposed .env file can be turned off. */
async function startSite() {
  const state = { csp: false, env: true, down: false };
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    if (state.down) {
      res.writeHead(503, { 'content-type': 'text/plain' }).end('maintenance');
      return;
    }
    if (req.url === '/.env' && state.env) {
      res.writeHead(200, { 'content-type': 'text/plain' }).end('APP_ENV=production\nDB_PASSWORD=correct-horse-battery-staple\n');
      return;
    }
    const headers: Record<string, string> = { 'content-type': 'text/html; charset=utf-8' };
    if (state.csp) headers['content-security-policy'] = "default-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'";
    const page =
      req.url === '/'
        ? '<!doctype html><title>Shop</title><h1>Shop</h1><a href="/about">About</a>'
        : req.url === '/about'
          ? '<!doctype html><title>About</title><h1>About</h1>'
          : null;
    res.writeHead(page ? 200 : 404, headers).end(page ?? '<!doctype html><title>Not found</title>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return { url, state, requests, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const sites: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  while (sites.length) await sites.pop()!.close();
});

describe('recheckFinding', () => {
  it('says a finding is still there, then fixed once the site changed, with only the requests its check needs', async () => {
    const site = await startSite();
    sites.push(site);
    const full = await scan(site.url, { maxPages: 5, render: false, rateLimit: 0 }, { addressPolicy: LOCAL });
    const env = full.findings.find((f) => f.checkId === 'exposed-env-file')!;
    const csp = full.findings.find((f) => f.checkId === 'csp-missing')!;
    expect(env).toBeDefined();
    expect(csp).toBeDefined();

    const still = await recheckFinding(site.url, env, { render: false, rateLimit: 0 }, { addressPolicy: LOCAL });
    expect(still).toMatchObject({ status: 'still_there', finding: { fingerprint: env.fingerprint } });
    expect(JSON.stringify(still)).not.toContain('correct-horse-battery-staple');

    site.state.env = false;
    site.requests.length = 0;
    const fixed = await recheckFinding(site.url, env, { render: false, rateLimit: 0 }, { addressPolicy: LOCAL });
    expect(fixed.status).toBe('fixed');
    // One page and the check's own probes, not a crawl: /about is never asked for.
    expect(site.requests).toContain('/.env');
    expect(site.requests).not.toContain('/about');

    expect((await recheckFinding(site.url, csp, { render: false, rateLimit: 0 }, { addressPolicy: LOCAL })).status).toBe('still_there');
    site.state.csp = true;
    expect((await recheckFinding(site.url, csp, { render: false, rateLimit: 0 }, { addressPolicy: LOCAL })).status).toBe('fixed');
  });

  it('never says fixed when the site is down, unreachable, or the check is gone', async () => {
    const site = await startSite();
    const full = await scan(site.url, { maxPages: 1, render: false, rateLimit: 0 }, { addressPolicy: LOCAL });
    const csp = full.findings.find((f) => f.checkId === 'csp-missing')!;
    site.state.down = true;
    const down = await recheckFinding(site.url, csp, { render: false, rateLimit: 0 }, { addressPolicy: LOCAL });
    expect(down.status).toBe('unknown');
    expect(down.reason).toMatch(/did not answer \(HTTP 503\)/);
    await site.close();
    const unreachable = await recheckFinding(site.url, csp, { render: false, rateLimit: 0, timeoutMs: 2_000 }, { addressPolicy: LOCAL });
    expect(unreachable.status).toBe('unknown');
    expect(unreachable.reason).toBeTruthy();
    const gone = await recheckFinding(site.url, { ...csp, checkId: 'retired-check' }, { render: false }, { addressPolicy: LOCAL });
    expect(gone).toMatchObject({ status: 'unknown', reason: 'This check is no longer part of the scanner: run a new scan.' });
  });

  it('starts on the finding’s page when it is one of the site, else on the site', () => {
    const finding = { checkId: 'x', fingerprint: 'f' };
    expect(recheckStart('https://shop.example/', { ...finding, url: 'https://shop.example/about' })).toBe('https://shop.example/about');
    expect(recheckStart('https://shop.example/', { ...finding, url: 'https://abc.supabase.co/rest/v1/profiles' })).toBe('https://shop.example/');
  });
});
