import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRAMING_CHECK_PATH, framingCheckSchema } from '../../common/live-browser';
import { startTestServer } from '../testing/test-server';

let server: Awaited<ReturnType<typeof startTestServer>>;
let site: http.Server;
let siteUrl: string;

/** The site under test: one path per framing answer, and redirects. */
const PAGES: Record<string, Record<string, string>> = {
  '/open': {},
  '/deny': { 'x-frame-options': 'DENY' },
  '/none': { 'content-security-policy': "default-src 'self'; frame-ancestors 'none'" },
  '/report-only': { 'content-security-policy-report-only': "frame-ancestors 'none'" },
};

beforeAll(async () => {
  site = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/to-deny') return void res.writeHead(302, { location: '/deny' }).end();
    if (path === '/loop') return void res.writeHead(302, { location: '/loop' }).end();
    if (path === '/to-file') return void res.writeHead(302, { location: 'file:///etc/passwd' }).end();
    if (path === '/to-private') return void res.writeHead(302, { location: 'http://10.255.255.1/' }).end();
    const headers = PAGES[path];
    res.writeHead(headers ? 200 : 404, { 'content-type': 'text/html', ...headers }).end('<!doctype html><title>Site</title><h1>Site</h1>');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  // Server mode as a team would run it: private addresses refused, the local test site allow-listed.
  server = await startTestServer({ VIBEEVAL_SCAN_ALLOW_PRIVATE: 'false', VIBEEVAL_SCAN_ALLOWLIST: '127.0.0.1', FRAMING_CHECK_MAX_PER_IP: '14' });
});
afterAll(async () => {
  await server?.stop();
  await new Promise<void>((resolve) => site.close(() => resolve()));
});

async function check(url: string) {
  const response = await fetch(`${server.origin}${FRAMING_CHECK_PATH}?url=${encodeURIComponent(url)}`);
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as Record<string, unknown> };
}

describe(`GET ${FRAMING_CHECK_PATH}`, () => {
  it('allows a site that sends no framing headers (and ignores a report-only policy)', async () => {
    const open = await check(`${siteUrl}/open`);
    expect(open.status).toBe(200);
    expect(framingCheckSchema.parse(open.body)).toEqual({ allowed: true, finalUrl: `${siteUrl}/open` });
    expect((await check(`${siteUrl}/report-only`)).body).toEqual({ allowed: true, finalUrl: `${siteUrl}/report-only` });
  });

  it('refuses X-Frame-Options DENY and frame-ancestors none, naming the host and the header', async () => {
    const host = new URL(siteUrl).host;
    expect((await check(`${siteUrl}/deny`)).body).toEqual({
      allowed: false,
      reason: `${host} does not allow being shown inside another page (X-Frame-Options).`,
      finalUrl: `${siteUrl}/deny`,
    });
    expect((await check(`${siteUrl}/none`)).body).toMatchObject({ allowed: false, reason: `${host} does not allow being shown inside another page (frame-ancestors).` });
  });

  it('follows redirects and judges the final page; more than 5 or to another scheme is an error', async () => {
    expect((await check(`${siteUrl}/to-deny`)).body).toMatchObject({ allowed: false, finalUrl: `${siteUrl}/deny` });
    const loop = await check(`${siteUrl}/loop`);
    expect(loop).toMatchObject({ status: 422, body: { detail: `${new URL(siteUrl).host} redirects more than 5 times.` } });
    const toFile = await check(`${siteUrl}/to-file`);
    expect(toFile.status).toBe(422);
    expect(toFile.body.detail).toBe(`${new URL(siteUrl).host} redirects to an address that cannot be shown (file:).`);
  });

  it('refuses private addresses, also behind a redirect, with a clear message', async () => {
    const refused = await check('http://10.255.255.1/');
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toMatch(/10\.255\.255\.1 resolves to 10\.255\.255\.1, a private or loopback address/);
    expect((await check(`${siteUrl}/to-private`)).body.detail).toMatch(/private or loopback address/);
  });

  it('answers the server itself with a refusal, without fetching it', async () => {
    expect((await check(`${server.origin}/vibe-loop`)).body).toEqual({
      allowed: false,
      reason: 'The vibeeval server itself cannot be shown in the live browser.',
      finalUrl: `${server.origin}/vibe-loop`,
    });
  });

  it('says a site cannot be reached', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const answer = await check(`http://127.0.0.1:${port}/`);
    expect(answer).toMatchObject({ status: 422, body: { detail: `The site cannot be reached: 127.0.0.1:${port} refused the connection.` } });
  });

  it('answers 400 with a clear message for a missing or bad URL', async () => {
    for (const bad of ['', 'example.com', 'javascript:alert(1)', 'file:///etc/passwd', 'https://user:pw@example.com/', `https://example.com/${'a'.repeat(3000)}`]) {
      const answer = await check(bad);
      expect(answer.status, bad).toBe(400);
      expect(answer.body.detail, bad).toMatch(/url|http\(s\)/);
    }
    const missing = await fetch(`${server.origin}${FRAMING_CHECK_PATH}`);
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { detail: string }).detail).toMatch(/url/);
  });

  it("lets the app's pages frame http(s) sites, while nobody may frame the app", async () => {
    const response = await fetch(`${server.origin}/health`);
    await response.body?.cancel();
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-src 'self' http: https:");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
  });

  it('counts checks per client IP and answers 429 with Retry-After beyond the limit', async () => {
    let answer = await check(`${siteUrl}/open`);
    for (let i = 0; i < 20 && answer.status !== 429; i++) answer = await check(`${siteUrl}/open`);
    expect(answer.status).toBe(429);
    expect(answer.body.detail).toBe('Too many checks. Please try again in a minute.');
    expect(Number(answer.retryAfter)).toBeGreaterThan(0);
  });
});
