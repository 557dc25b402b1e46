import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusCertificates } from '../../engine/testing/corpus/harness';
import { EXCERPT_CHARS, delivered, sendWebhook } from './send';
import { newMessageId, newWebhookSecret, signedHeaders, WEBHOOK_USER_AGENT } from './signing';

// The HTTP side of a delivery, against a local receiver: the signature verifies with the standardwebhooks library,
// the address policy refuses private addresses at connect time (a public name resolving to 127.0.0.1 included),
// the wait is bounded, redirects are not followed and the answer is read only in part.

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let receiver: http.Server;
let port: number;
const received: Received[] = [];

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body });
      if (req.url === '/hang') return; // never answers
      if (req.url === '/redirect') return res.writeHead(302, { location: `http://127.0.0.1:${port}/elsewhere` }).end();
      if (req.url === '/big') return res.writeHead(200, { 'content-type': 'text/plain' }).end('x'.repeat(100_000));
      res.writeHead(req.url === '/fail' ? 500 : 200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  port = (receiver.address() as AddressInfo).port;
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

const LOCAL = { allowPrivate: true };
const SERVER_MODE = { allowPrivate: false };
const body = JSON.stringify({ type: 'scan.completed', timestamp: new Date().toISOString(), data: { scan_id: 'x' } });
const lastTo = (path: string) => [...received].reverse().find((entry) => entry.path === path);

describe('sendWebhook', () => {
  it('sends a body a receiver verifies with the standardwebhooks library, and a tampered one fails', async () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const messageId = newMessageId();
    const outcome = await sendWebhook(`http://127.0.0.1:${port}/ok`, body, signedHeaders(secret, messageId, body), { policy: LOCAL, timeoutMs: 2000 });
    expect(outcome).toMatchObject({ statusCode: 200, error: null, responseExcerpt: '{"ok":true}' });
    expect(delivered(outcome)).toBe(true);
    const got = lastTo('/ok')!;
    expect(got.body).toBe(body);
    expect(got.headers['webhook-id']).toBe(messageId);
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['user-agent']).toBe(WEBHOOK_USER_AGENT);
    const headers = {
      'webhook-id': String(got.headers['webhook-id']),
      'webhook-timestamp': String(got.headers['webhook-timestamp']),
      'webhook-signature': String(got.headers['webhook-signature']),
    };
    expect(new Webhook(secret).verify(got.body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(got.body.replace('"x"', '"y"'), headers)).toThrow(/signature/i);
    expect(() => new Webhook(newWebhookSecret()).verify(got.body, headers)).toThrow(/signature/i);
  });

  it('counts a 500 as not delivered, with the answer kept as an excerpt', async () => {
    const outcome = await sendWebhook(`http://127.0.0.1:${port}/fail`, body, signedHeaders(newWebhookSecret(), newMessageId(), body), { policy: LOCAL, timeoutMs: 2000 });
    expect(outcome.statusCode).toBe(500);
    expect(delivered(outcome)).toBe(false);
  });

  it('refuses a public host name that resolves to 127.0.0.1 in server mode, at connect time, sending nothing', async () => {
    const before = received.length;
    const outcome = await sendWebhook('http://hooks.example.com/rebound', body, signedHeaders(newWebhookSecret(), newMessageId(), body), {
      policy: SERVER_MODE,
      timeoutMs: 2000,
      resolveHost: (host) => (host === 'hooks.example.com' ? { address: '127.0.0.1', port } : undefined),
    });
    expect(outcome.statusCode).toBeNull();
    expect(outcome.error).toMatch(/hooks\.example\.com resolves to 127\.0\.0\.1, a private or loopback address/);
    expect(received.length).toBe(before);
  });

  it('refuses a private address literal in server mode', async () => {
    const outcome = await sendWebhook(`http://127.0.0.1:${port}/ok`, body, {}, { policy: SERVER_MODE, timeoutMs: 2000 });
    expect(outcome.statusCode).toBeNull();
    expect(outcome.error).toMatch(/private or loopback/);
  });

  it('gives up on a receiver that does not answer within the timeout', async () => {
    const started = Date.now();
    const outcome = await sendWebhook(`http://127.0.0.1:${port}/hang`, body, {}, { policy: LOCAL, timeoutMs: 300 });
    expect(outcome.statusCode).toBeNull();
    expect(outcome.error).toMatch(/did not answer in time/);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('does not follow a redirect: the 302 is the answer, and nothing reaches its target', async () => {
    const outcome = await sendWebhook(`http://127.0.0.1:${port}/redirect`, body, {}, { policy: LOCAL, timeoutMs: 2000 });
    expect(outcome.statusCode).toBe(302);
    expect(delivered(outcome)).toBe(false);
    expect(lastTo('/elsewhere')).toBeUndefined();
  });

  it('reads only the start of a large answer', async () => {
    const outcome = await sendWebhook(`http://127.0.0.1:${port}/big`, body, {}, { policy: LOCAL, timeoutMs: 2000 });
    expect(outcome.statusCode).toBe(200);
    expect(outcome.responseExcerpt).toHaveLength(EXCERPT_CHARS);
  });

  it('reports a refused connection', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const outcome = await sendWebhook(`http://127.0.0.1:${deadPort}/`, body, {}, { policy: LOCAL, timeoutMs: 2000 });
    expect(outcome.statusCode).toBeNull();
    expect(outcome.error).toMatch(/refused the connection/);
  });

  it('sends nothing to an https receiver whose certificate is not trusted: the handshake fails first', async () => {
    // A certificate from a throwaway CA that nothing trusts, as a man in the middle would present.
    const { key, cert } = corpusCertificates();
    let requests = 0;
    const untrusted = https.createServer({ key, cert }, (_req, res) => {
      requests++;
      res.writeHead(200).end('ok');
    });
    await new Promise<void>((resolve) => untrusted.listen(0, '127.0.0.1', resolve));
    try {
      const tlsPort = (untrusted.address() as AddressInfo).port;
      const outcome = await sendWebhook(`https://127.0.0.1:${tlsPort}/hook`, body, {}, { policy: LOCAL, timeoutMs: 2000 });
      expect(outcome.statusCode).toBeNull();
      expect(outcome.error).toMatch(/certificate/);
      expect(delivered(outcome)).toBe(false);
      expect(requests).toBe(0);
    } finally {
      untrusted.closeAllConnections();
      await new Promise<void>((resolve) => untrusted.close(() => resolve()));
    }
  });
});
