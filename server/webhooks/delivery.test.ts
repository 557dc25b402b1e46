import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookDeliverySchema, type WebhookDelivery } from '../../common/webhooks';
import { rawRequest, signUp } from '../testing/http';
import { startTestServer } from '../testing/test-server';

// Deliveries end to end on a real server: a local receiver verifies every delivery with the standardwebhooks
// library; real scans of a local site emit scan.completed and report.generated; retries follow a 500 and a
// timeout with the same webhook-id; attempts run out; a deleted webhook gets nothing more. The deliveries list
// (GET /webhook/{id}/deliveries) is what each test reads the attempts from.

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
let site: http.Server;
let siteUrl: string;
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
  site = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><html lang="en"><title>Shop</title><h1>Shop</h1></html>'));
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  server = await startTestServer({
    VIBEEVAL_SCAN_ALLOW_PRIVATE: 'true',
    VIBEEVAL_SCAN_RENDER: 'false',
    VIBEEVAL_SCAN_RATE: '0',
    VIBEEVAL_SCAN_CONCURRENCY: '4',
    VIBEEVAL_SCENARIO_CONCURRENCY: '0',
    VIBEEVAL_WEBHOOK_TIMEOUT_MS: '400',
    VIBEEVAL_WEBHOOK_RETRY_SCHEDULE: '1,1',
  });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  receiver.closeAllConnections();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
  await new Promise<void>((resolve) => site.close(() => resolve()));
});

type User = Awaited<ReturnType<typeof signUp>>;
const call = (user: User, method: string, path: string, body?: unknown) =>
  rawRequest(server.origin, {
    method,
    path,
    headers: { authorization: `Bearer ${user.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A user with one webhook at the receiver's `path`, and a scanned project; the webhook's id. */
async function userWithWebhook(path: string): Promise<{ user: User; webhookId: string }> {
  const user = await signUp(server.origin, 'hooks');
  const created = await call(user, 'POST', '/webhook', { url: `${receiverUrl}${path}` });
  expect(created.status).toBe(201);
  const { id, secret } = created.json as { id: string; secret: string };
  secrets.set(path, secret);
  return { user, webhookId: id };
}

async function scan(user: User): Promise<string> {
  const project = (await call(user, 'POST', '/project', { url: siteUrl, num_pages: 1 })).json as { id: string };
  const started = await call(user, 'PATCH', `/project_test/${project.id}`);
  expect(started.status).toBe(200);
  return (started.json as { scan_id: string }).scan_id;
}

async function deliveries(user: User, webhookId: string): Promise<WebhookDelivery[]> {
  const answer = await call(user, 'GET', `/webhook/${webhookId}/deliveries`);
  expect(answer.status).toBe(200);
  return (answer.json as unknown[]).map((item) => webhookDeliverySchema.parse(item));
}

const bodies = (path: string) => received.filter((entry) => entry.path === path);

describe('webhook deliveries', () => {
  it('delivers scan.completed and report.generated after a real scan, signed so the receiver verifies them', async () => {
    const { user, webhookId } = await userWithWebhook('/ok');
    const scanId = await scan(user);
    const events = await until('both events', () => {
      const got = bodies('/ok');
      return got.length >= 2 ? got : undefined;
    }, 30_000);
    for (const event of events) expect(event.verified).not.toBeNull();
    const completed = events.map((event) => event.verified as { type: string; timestamp: string; data: Record<string, unknown> }).find((event) => event.type === 'scan.completed')!;
    expect(completed.data).toMatchObject({ scan_id: scanId, url: siteUrl });
    expect(typeof completed.data.grade).toBe('string');
    expect(typeof completed.data.score).toBe('number');
    expect(Object.keys(completed.data.counts as object).length).toBeGreaterThan(0);
    expect(Date.parse(completed.timestamp)).not.toBeNaN();
    const report = events.map((event) => event.verified as { type: string; data: Record<string, unknown> }).find((event) => event.type === 'report.generated')!;
    expect(report.data).toMatchObject({ type: 'security', scan_id: scanId });
    expect(typeof report.data.total_issues).toBe('number');
    const listed = await until('succeeded deliveries', async () => {
      const items = await deliveries(user, webhookId);
      return items.length === 2 && items.every((item) => item.status === 'succeeded') ? items : undefined;
    });
    expect(listed.map((item) => item.event_type).sort()).toEqual(['report.generated', 'scan.completed']);
    for (const item of listed) expect(item.attempts).toMatchObject([{ status_code: 200, error: null, response_excerpt: 'thanks' }]);
  }, 40_000);

});

// Each waits for retries a second apart: they wait side by side.
describe.concurrent('webhook retries', () => {
  it('retries after a 500 with the same webhook-id, then succeeds; two attempts logged', async () => {
    const { user, webhookId } = await userWithWebhook('/flaky');
    await scan(user);
    const items = await until('retried deliveries', async () => {
      const list = await deliveries(user, webhookId);
      return list.length === 2 && list.every((item) => item.status === 'succeeded') ? list : undefined;
    }, 20_000);
    for (const item of items) {
      expect(item.attempts.map((attempt) => attempt.status_code)).toEqual([500, 200]);
      expect(item.attempts[0]!.response_excerpt).toBe('receiver broke');
      const tries = bodies('/flaky').filter((entry) => entry.messageId === item.message_id);
      expect(tries).toHaveLength(2);
      for (const attempt of tries) expect(attempt.verified).not.toBeNull();
    }
  }, 40_000);

  it('retries an attempt that timed out', async () => {
    const { user, webhookId } = await userWithWebhook('/slow');
    await scan(user);
    const items = await until('deliveries after a timeout', async () => {
      const list = await deliveries(user, webhookId);
      return list.length === 2 && list.every((item) => item.status === 'succeeded') ? list : undefined;
    }, 20_000);
    for (const item of items) {
      expect(item.attempts.map((attempt) => attempt.status_code)).toEqual([null, 200]);
      expect(item.attempts[0]!.error).toMatch(/did not answer in time/);
    }
  }, 40_000);

  it('marks a delivery failed once its attempts run out (1 + the retry schedule)', async () => {
    const { user, webhookId } = await userWithWebhook('/down');
    await scan(user);
    const items = await until('failed deliveries', async () => {
      const list = await deliveries(user, webhookId);
      return list.length === 2 && list.every((item) => item.status === 'failed') ? list : undefined;
    }, 20_000);
    for (const item of items) {
      expect(item.attempts.map((attempt) => attempt.status_code)).toEqual([500, 500, 500]);
      expect(item.next_attempt_at).toBeNull();
    }
  }, 40_000);

  it('stops delivering once the webhook is deleted', async () => {
    const { user, webhookId } = await userWithWebhook('/down-deleted');
    await scan(user);
    // Both events' first attempts (each answered 500), then the delete, well before their retries are due.
    await until('the first attempts', () => bodies('/down-deleted').length >= 2 || undefined, 30_000);
    expect((await call(user, 'DELETE', `/webhook/${webhookId}`)).status).toBe(204);
    const after = bodies('/down-deleted').length;
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(bodies('/down-deleted').length).toBe(after);
    expect((await call(user, 'GET', '/webhooks')).json).toEqual([]);
    expect((await call(user, 'GET', `/webhook/${webhookId}/deliveries`)).status).toBe(404);
  }, 40_000);

});

