import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { webhookDeliverySchema, type WebhookDelivery } from '../../common/webhooks';
import { callApi, signUp, type RawAnswer } from '../testing/http';
import { startTestServer } from '../testing/test-server';

/** Polls until `probe` gives a value (not undefined or false): the shared helper, here for the webhooks' tests. */
export { until } from '../testing/until';

// What the webhook tests share: a real server, a local one-page site to scan, and a loopback receiver that
// verifies every delivery with the standardwebhooks library and answers by path: /flaky fails each message once,
// /slow leaves the first attempt of each message unanswered, /down always fails, anything else answers 200.

export interface Received {
  path: string;
  messageId: string;
  body: string;
  /** The verified payload; null when the signature does not hold for the secret of the webhook at this path. */
  verified: unknown;
}

export type TestUser = Awaited<ReturnType<typeof signUp>>;

export interface WebhookHarness {
  server: Awaited<ReturnType<typeof startTestServer>>;
  receiverUrl: string;
  siteUrl: string;
  received: Received[];
  call(user: TestUser, method: string, path: string, body?: unknown): Promise<RawAnswer>;
  /** A new user with one webhook at the receiver's `path` (its secret kept for verifying). */
  userWithWebhook(path: string): Promise<{ user: TestUser; webhookId: string }>;
  /** Creates a one-page project of the local site and starts its scan; the scan's id. */
  scan(user: TestUser): Promise<string>;
  deliveries(user: TestUser, webhookId: string): Promise<WebhookDelivery[]>;
  /** What the receiver got at this path. */
  bodies(path: string): Received[];
  stop(): Promise<void>;
}

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export async function startWebhookHarness(env: Record<string, string>): Promise<WebhookHarness> {
  const secrets = new Map<string, string>();
  const received: Received[] = [];
  const seen = new Map<string, number>();
  const verify = (path: string, body: string, headers: http.IncomingHttpHeaders): unknown => {
    const secret = secrets.get(path);
    if (!secret) return null;
    try {
      return new Webhook(secret).verify(body, {
        'webhook-id': String(headers['webhook-id']),
        'webhook-timestamp': String(headers['webhook-timestamp']),
        'webhook-signature': String(headers['webhook-signature']),
      });
    } catch {
      return null;
    }
  };
  const receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0]!;
      const messageId = String(req.headers['webhook-id']);
      const count = (seen.get(messageId) ?? 0) + 1;
      seen.set(messageId, count);
      received.push({ path, messageId, body, verified: verify(path, body, req.headers) });
      if (path.startsWith('/slow') && count === 1) return;
      const status = path.startsWith('/down') || (path.startsWith('/flaky') && count === 1) ? 500 : 200;
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'thanks' : 'receiver broke');
    });
  });
  const receiverUrl = await listen(receiver);
  const site = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><html lang="en"><title>Shop</title><h1>Shop</h1></html>'));
  const siteUrl = `${await listen(site)}/`;
  const server = await startTestServer(env);

  const call = (user: TestUser, method: string, path: string, body?: unknown) => callApi(server.origin, method, path, { token: user.token, body });
  const fail = (what: string, answer: RawAnswer) => new Error(`${what} answered ${answer.status}: ${answer.text}`);

  return {
    server,
    receiverUrl,
    siteUrl,
    received,
    call,
    async userWithWebhook(path) {
      const user = await signUp(server.origin, 'hooks');
      const created = await call(user, 'POST', '/webhook', { url: `${receiverUrl}${path}` });
      if (created.status !== 201) throw fail('POST /webhook', created);
      const { id, secret } = created.json as { id: string; secret: string };
      secrets.set(path, secret);
      return { user, webhookId: id };
    },
    async scan(user) {
      const project = (await call(user, 'POST', '/project', { url: siteUrl, num_pages: 1 })).json as { id: string };
      const started = await call(user, 'PATCH', `/project_test/${project.id}`);
      if (started.status !== 200) throw fail('PATCH /project_test', started);
      return (started.json as { scan_id: string }).scan_id;
    },
    async deliveries(user, webhookId) {
      const answer = await call(user, 'GET', `/webhook/${webhookId}/deliveries`);
      if (answer.status !== 200) throw fail('GET /webhook/:id/deliveries', answer);
      return (answer.json as unknown[]).map((item) => webhookDeliverySchema.parse(item));
    },
    bodies: (path) => received.filter((entry) => entry.path === path),
    async stop() {
      await server.stop();
      receiver.closeAllConnections();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
      await new Promise<void>((resolve) => site.close(() => resolve()));
    },
  };
}
