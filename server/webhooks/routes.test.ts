import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest, signUp } from '../testing/http';
import { startTestServer } from '../testing/test-server';
import { MAX_WEBHOOKS_PER_USER } from './service';

// The webhook routes on a real server in server mode (private addresses refused; the local receiver's 127.0.0.1
// allow-listed, as an administrator would): saving with the spec's validation texts, the address policy at save
// and at test, the test call's answers, another user's 404, the per-user maximum and the list's pages.

interface Received {
  path: string;
  messageId: string;
  body: string;
  verified: unknown;
}

const secrets = new Map<string, string>();
const received: Received[] = [];
const seen = new Map<string, number>();
let receiver: http.Server;
let receiverUrl: string;
let server: Awaited<ReturnType<typeof startTestServer>>;

/** Verifies with the secret of the webhook saved at this path; null when the signature does not hold. */
function verify(path: string, body: string, headers: http.IncomingHttpHeaders): unknown {
  const secret = secrets.get(path);
  if (!secret) return null;
  try {
    return new Webhook(secret).verify(body, { 'webhook-id': String(headers['webhook-id']), 'webhook-timestamp': String(headers['webhook-timestamp']), 'webhook-signature': String(headers['webhook-signature']) });
  } catch {
    return null;
  }
}

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0]!;
      const messageId = String(req.headers['webhook-id']);
      const count = (seen.get(messageId) ?? 0) + 1;
      seen.set(messageId, count);
      received.push({ path, messageId, body, verified: verify(path, body, req.headers) });
      // /flaky fails each message once; /slow keeps the first attempt of each message waiting; /down always fails.
      if (path.startsWith('/slow') && count === 1) return;
      const status = path.startsWith('/down') || (path.startsWith('/flaky') && count === 1) ? 500 : 200;
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'thanks' : 'receiver broke');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  server = await startTestServer({
    VIBEEVAL_SCAN_ALLOW_PRIVATE: 'false',
    VIBEEVAL_SCAN_ALLOWLIST: '127.0.0.1',
    VIBEEVAL_SCAN_CONCURRENCY: '0',
    VIBEEVAL_SCENARIO_CONCURRENCY: '0',
    VIBEEVAL_WEBHOOK_TIMEOUT_MS: '400',
    VIBEEVAL_WEBHOOK_RETRY_SCHEDULE: '1,1',
  });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  receiver.closeAllConnections();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

type User = Awaited<ReturnType<typeof signUp>>;
const call = (user: User, method: string, path: string, body?: unknown) =>
  rawRequest(server.origin, {
    method,
    path,
    headers: { authorization: `Bearer ${user.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

/** A user with one webhook at the receiver's `path`; the webhook's id. */
async function userWithWebhook(path: string): Promise<{ user: User; webhookId: string }> {
  const user = await signUp(server.origin, 'hooks');
  const created = await call(user, 'POST', '/webhook', { url: `${receiverUrl}${path}` });
  expect(created.status).toBe(201);
  const { id, secret } = created.json as { id: string; secret: string };
  secrets.set(path, secret);
  return { user, webhookId: id };
}

const bodies = (path: string) => received.filter((entry) => entry.path === path);

describe('webhook routes', () => {
  it('saves a webhook with a whsec_ secret shown once, lists it without the secret, and validates the URL with the spec texts', async () => {
    const user = await signUp(server.origin, 'save');
    const created = await call(user, 'POST', '/webhook', { url: `${receiverUrl}/saved` });
    expect(created.status).toBe(201);
    const hook = created.json as { id: string; url: string; created_at: string; secret: string };
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    expect(hook.url).toBe(`${receiverUrl}/saved`);
    const list = await call(user, 'GET', '/webhooks');
    expect(list.json).toEqual([{ id: hook.id, url: hook.url, created_at: hook.created_at }]);
    expect(list.text).not.toContain('whsec_');
    expect((await call(user, 'POST', '/webhook', { url: 'htt' })).json).toEqual({ detail: 'Webhook URL is required' });
    expect((await call(user, 'POST', '/webhook', { url: 'not a url at all' })).json).toEqual({ detail: 'Please enter a valid URL' });
    expect((await call(user, 'POST', '/webhook', { url: 'ftp://example.com/x' })).json).toEqual({ detail: 'Please enter a valid URL' });
  });

  it('test call: signs with the saved webhook\'s secret and answers the receiver\'s status; no answer is a 502 with the reason', async () => {
    const { user } = await userWithWebhook('/ok-test');
    const ok = await call(user, 'POST', '/webhook/test', { url: `${receiverUrl}/ok-test` });
    expect(ok.status).toBe(200);
    expect(ok.json).toEqual({ status_code: 200 });
    const event = bodies('/ok-test').at(-1)!;
    expect(event.verified).toMatchObject({ type: 'webhook.test' });
    const failing = await call(user, 'POST', '/webhook/test', { url: `${receiverUrl}/down-test` });
    expect(failing.json).toEqual({ status_code: 500 });
    const silent = await call(user, 'POST', '/webhook/test', { url: `${receiverUrl}/slow-test` });
    expect(silent.status).toBe(502);
    expect((silent.json as { detail: string }).detail).toMatch(/^The webhook endpoint did not answer: .*did not answer in time/);
    expect((await call(user, 'POST', '/webhook/test', { url: '' })).json).toEqual({ detail: 'Webhook URL is required' });
  });

  it('refuses a private address in server mode, at save and at test, with the policy\'s reason', async () => {
    const user = await signUp(server.origin, 'private');
    for (const url of ['http://10.1.2.3/hook', 'http://192.168.1.20:8080/hook', 'http://[::1]:9/hook']) {
      for (const path of ['/webhook', '/webhook/test']) {
        const answer = await call(user, 'POST', path, { url });
        expect(answer.status, `${path} ${url}`).toBe(400);
        expect((answer.json as { detail: string }).detail).toMatch(/a private or loopback address; scans from this server may reach only public addresses/);
      }
    }
    expect((await call(user, 'GET', '/webhooks')).json).toEqual([]);
  });

  it("answers 404 for another user's webhook and leaves it in place", async () => {
    const { user: owner, webhookId } = await userWithWebhook('/owned');
    const other = await signUp(server.origin, 'other');
    for (const [method, path] of [
      ['DELETE', `/webhook/${webhookId}`],
      ['GET', `/webhook/${webhookId}/deliveries`],
    ] as const) {
      const answer = await call(other, method, path);
      expect(answer.status).toBe(404);
      expect(answer.json).toEqual({ detail: 'Webhook not found' });
    }
    expect((await call(other, 'GET', '/webhooks')).json).toEqual([]);
    expect(((await call(owner, 'GET', '/webhooks')).json as { id: string }[]).map((hook) => hook.id)).toEqual([webhookId]);
  });

  it(`refuses more than ${MAX_WEBHOOKS_PER_USER} webhooks per user with a clear 409`, async () => {
    const user = await signUp(server.origin, 'many');
    for (let i = 0; i < MAX_WEBHOOKS_PER_USER; i++) expect((await call(user, 'POST', '/webhook', { url: `${receiverUrl}/many/${i}` })).status).toBe(201);
    const refused = await call(user, 'POST', '/webhook', { url: `${receiverUrl}/many/last` });
    expect(refused.status).toBe(409);
    expect(refused.json).toEqual({ detail: `You can have at most ${MAX_WEBHOOKS_PER_USER} webhooks; delete one to add another.` });
    const page = await fetch(`${server.origin}/webhooks?limit=15`, { headers: { authorization: `Bearer ${user.token}` } });
    expect(((await page.json()) as unknown[]).length).toBe(15);
    const next = page.headers.get('x-next-cursor');
    expect(typeof next).toBe('string');
    expect(((await call(user, 'GET', `/webhooks?limit=15&cursor=${String(next)}`)).json as unknown[]).length).toBe(MAX_WEBHOOKS_PER_USER - 15);
  });
});
