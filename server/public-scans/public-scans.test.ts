import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicScanAcceptedSchema } from '../../common/public-scan';
import { LinkSigner } from '../reports/signing';
import { startSmtpCapture, startTestServer } from '../testing/test-server';
import { publicReportLink } from './routes';

let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
let server: Awaited<ReturnType<typeof startTestServer>>;
let site: http.Server;
let siteUrl: string;

beforeAll(async () => {
  // The site a visitor asks about: one page, no security headers, a version-revealing Server header.
  site = http.createServer((req, res) => {
    res.writeHead(req.url === '/' ? 200 : 404, { 'content-type': 'text/html', server: 'nginx/1.18.0' });
    res.end('<!doctype html><title>Launch</title><h1>My app</h1>');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  smtp = await startSmtpCapture();
  server = await startTestServer({
    SMTP_URL: smtp.url,
    VIBEEVAL_SCAN_RENDER: 'false',
    VIBEEVAL_SCAN_RATE: '0',
    PUBLIC_SCAN_MAX_PER_EMAIL: '2',
    PUBLIC_SCAN_MAX_PER_IP: '8',
  });
});
afterAll(async () => {
  await server?.stop();
  await smtp?.close();
  await new Promise<void>((resolve) => site.close(() => resolve()));
});

let counter = 0;
const newEmail = () => `visitor${Date.now()}${counter++}@example.com`;

/** GET with the body read to the end (an unread body keeps its connection busy, and the server's close waits for it). */
async function get(url: string) {
  const response = await fetch(url);
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

async function post(body: unknown) {
  const response = await fetch(`${server.origin}/v2/vibe-scanner`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as Record<string, unknown> };
}

async function signer() {
  const secrets = JSON.parse(await readFile(join(server.dataDir, 'secrets.json'), 'utf8')) as { linkSecret: string };
  return new LinkSigner(secrets.linkSecret);
}

describe('POST /v2/vibe-scanner', () => {
  it('scans the site for real and mails the HTML report, retrievable by its signed link', async () => {
    const email = newEmail();
    const accepted = await post({ url: siteUrl, email });
    expect(accepted.status).toBe(202);
    const { id } = publicScanAcceptedSchema.parse(accepted.body);

    const mail = await smtp.next(email, 60_000);
    expect(mail.subject).toMatch(/^Your vibeeval security report for 127\.0\.0\.1:\d+: grade [A-F][+-]?$/);
    expect(mail.text).toContain(`vibeeval scanned ${siteUrl}`);
    // The engine's real findings for this site: no CSP, and the Server header's version.
    expect(mail.text).toMatch(/Most serious findings:\n- \[(high|medium)\]/);
    expect(mail.attachments).toHaveLength(1);
    expect(mail.attachments[0]).toMatchObject({ filename: expect.stringMatching(/^vibeeval-report-127\.0\.0\.1_\d+\.html$/) as string, contentType: 'text/html' });
    expect(mail.attachments[0]!.content).toContain('Content-Security-Policy');

    const link = /https?:\/\/\S+\/v2\/vibe-scanner\/\S+\/report\?exp=\d+&sig=\S+/.exec(mail.text)?.[0];
    expect(link).toContain(id);
    const report = await get(link!);
    expect(report.status).toBe(200);
    expect(report.type).toContain('text/html');
    expect(report.text).toContain(siteUrl);
    const tampered = await get(link!.replace(/sig=.(.)/, (_m, c: string) => `sig=${c === 'A' ? 'B' : 'A'}${c}`));
    expect(tampered.status).toBe(403);
  }, 90_000);

  it('answers bad input with 400 and the form messages', async () => {
    const cases: [unknown, string][] = [
      [{ url: 'not a url', email: 'a@example.com' }, 'Please enter a valid website URL'],
      [{ url: 'https://lovable.dev/projects/123', email: 'a@example.com' }, 'Please use the deployed URL for this project, not the Lovable editor URL'],
      [{ url: 'https://app.vibe-eval.com', email: 'a@example.com' }, 'vibe-eval.com cannot be scanned with itself'],
      [{ url: 'example.com', email: 'nope' }, 'Please enter a valid email address'],
      [{ url: 'example.com' }, 'Please enter a valid email address'],
      ['{"url":', "Body is not valid JSON but content-type is set to 'application/json'"],
    ];
    for (const [body, detail] of cases) {
      const answer = await post(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body).toEqual({ detail });
    }
  });

  it('limits requests per email address with 429 and Retry-After', async () => {
    const email = newEmail();
    // Unreachable port: the scan fails fast and its mail says why.
    const url = 'http://127.0.0.1:9/';
    expect((await post({ url, email })).status).toBe(202);
    expect((await post({ url, email: email.toUpperCase() })).status).toBe(202);
    const third = await post({ url, email });
    expect(third.status).toBe(429);
    expect(third.body).toEqual({ detail: 'Too many scan requests. Please try again later.' });
    expect(Number(third.retryAfter)).toBeGreaterThan(0);

    const failure = await smtp.next(email, 30_000);
    expect(failure.subject).toBe('We could not scan 127.0.0.1:9');
    expect(failure.text).toContain('vibeeval could not scan http://127.0.0.1:9/');
  }, 60_000);

  it("says in words what failed when the site's secure connection does, with the code in brackets and no OpenSSL text", async () => {
    const email = newEmail();
    // The test site speaks plain HTTP: asked for https://, the TLS handshake reads an HTTP answer.
    const url = siteUrl.replace('http://', 'https://');
    expect((await post({ url, email })).status).toBe(202);
    const failure = await smtp.next(email, 30_000);
    expect(failure.subject).toBe(`We could not scan ${new URL(url).host}`);
    expect(failure.text).toMatch(/did not set up a secure \(HTTPS\) connection: .* \((EPROTO|ERR_SSL_[A-Z_]+)\)/);
    expect(failure.text).not.toMatch(/SSL routines|ssl3_|error:[0-9A-F]{8}/);
    expect(failure.html).not.toMatch(/SSL routines|ssl3_/);
  }, 60_000);

  it('keeps the report when the mail server refuses it, and delivers it on a later attempt', async () => {
    const email = newEmail();
    smtp.state.rejecting = true;
    const { id } = publicScanAcceptedSchema.parse((await post({ url: siteUrl, email })).body);
    const link = publicReportLink(await signer(), server.origin, id);
    // The scan finishes and its report is served while the mail keeps failing.
    const deadline = Date.now() + 30_000;
    let status = 0;
    while (Date.now() < deadline && (status !== 200 || smtp.state.rejected === 0)) {
      status = (await get(link)).status;
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    expect(status).toBe(200);
    expect(smtp.state.rejected).toBeGreaterThan(0);
    smtp.state.rejecting = false;
    const mail = await smtp.next(email, 60_000);
    expect(mail.subject).toContain('Your vibeeval security report');
  }, 120_000);
});

describe('POST /v2/vibe-scanner on a server that scans only public addresses', () => {
  it('refuses a private address with the reason', async () => {
    const strict = await startTestServer({ VIBEEVAL_SCAN_ALLOW_PRIVATE: 'false', VIBEEVAL_SCAN_CONCURRENCY: '0' });
    try {
      const response = await fetch(`${strict.origin}/v2/vibe-scanner`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: 'http://10.0.0.8/', email: 'a@example.com' }),
      });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { detail: string }).detail).toMatch(/private or loopback address/);
    } finally {
      await strict.stop();
    }
  }, 60_000);
});
