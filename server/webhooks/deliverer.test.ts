import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db';
import { openFreshDatabase } from '../testing/fresh-database';
import { webhookAttempts, webhookDeliveries, webhooks } from '../db/schema';
import { Sealer } from '../projects/sealed';
import { personalWorkspace } from '../testing/workspace-rows';
import { eventPayload, MAX_PAYLOAD_BYTES, WebhookDeliverer } from './delivery';
import { newWebhookSecret } from './signing';

// The deliverer against a real PostgreSQL, without the job queue (its enqueue is recorded): one attempt at a time
// per delivery, the retry scheduled with its backoff, the sweep that finds lost attempts, the payload's bound,
// and a webhook deleted while its attempt is on the wire.

let database: Database;
let receiver: http.Server;
let receiverUrl: string;
const hits: string[] = [];
const sealer = new Sealer('deliverer-test-secret');
const queued: [string, number][] = [];
let deliverer: WebhookDeliverer;

beforeAll(async () => {
  database = await openFreshDatabase();
  receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const path = req.url ?? '';
      hits.push(path);
      // Slow enough that a second attempt started meanwhile finds the delivery claimed.
      setTimeout(() => {
        void (async () => {
          if (path.startsWith('/gone')) await database.pool.query('delete from webhooks where url = $1', [`${receiverUrl}${path}`]);
          res.writeHead(path.startsWith('/fail') ? 500 : 200).end('ok');
        })();
      }, 150);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  deliverer = new WebhookDeliverer({
    db: database.db,
    sealer,
    policy: { allowPrivate: true },
    logger: pino({ level: 'silent' }),
    config: { timeoutMs: 2000, retrySchedule: [7, 60] },
    enqueueAttempt: async (id, delay) => void queued.push([id, delay]),
  });
}, 60_000);

afterAll(async () => {
  await deliverer?.stop();
  receiver.closeAllConnections();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
  await database?.close();
});

async function webhookAt(path: string): Promise<string> {
  const userId = await personalWorkspace(database.pool, randomUUID());
  await database.db.insert(webhooks).values({ workspaceId: userId, userId, url: `${receiverUrl}${path}`, secretSealed: sealer.seal(newWebhookSecret()) });
  return userId;
}

const attemptsOf = (deliveryId: string) => database.db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, deliveryId));
const deliveryRow = async (deliveryId: string) => (await database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryId)))[0];

describe('WebhookDeliverer', () => {
  it('makes one attempt when two start at once: the second finds the delivery claimed', async () => {
    const userId = await webhookAt('/once');
    const [id] = await deliverer.store(userId, 'scan.completed', { scan_id: 'a' });
    const results = await Promise.all([deliverer.attempt(id!), deliverer.attempt(id!)]);
    expect(results.sort()).toEqual(['skipped', 'succeeded']);
    expect(hits.filter((hit) => hit === '/once')).toHaveLength(1);
    expect(await attemptsOf(id!)).toHaveLength(1);
    expect(await deliveryRow(id!)).toMatchObject({ status: 'succeeded', attempts: 1, nextAttemptAt: null });
  });

  it('schedules the retry with its backoff, and an attempt before it is due does nothing', async () => {
    const userId = await webhookAt('/fail');
    const [id] = await deliverer.store(userId, 'report.generated', { report_id: 'r' });
    expect(await deliverer.attempt(id!)).toBe('retrying');
    expect(queued).toContainEqual([id, 7]);
    const row = await deliveryRow(id!);
    expect(row!.status).toBe('pending');
    const wait = (row!.nextAttemptAt!.getTime() - Date.now()) / 1000;
    expect(wait).toBeGreaterThan(5);
    expect(wait).toBeLessThan(8);
    expect(await deliverer.attempt(id!)).toBe('skipped');
    expect(await attemptsOf(id!)).toHaveLength(1);
  });

  it('sweeps up deliveries whose attempt was lost, including one never attempted', async () => {
    const userId = await webhookAt('/lost');
    const [never, leased] = [...(await deliverer.store(userId, 'scan.completed', { scan_id: 'n' })), ...(await deliverer.store(userId, 'scan.completed', { scan_id: 'l' }))];
    await database.db
      .update(webhookDeliveries)
      .set({ createdAt: sql`now() - interval '5 minutes'` })
      .where(eq(webhookDeliveries.id, never!));
    await database.db
      .update(webhookDeliveries)
      .set({ attempts: 1, nextAttemptAt: sql`now() - interval '2 minutes'` })
      .where(eq(webhookDeliveries.id, leased!));
    queued.length = 0;
    expect(await deliverer.sweep()).toBeGreaterThanOrEqual(2);
    expect(queued).toContainEqual([never, 0]);
    expect(queued).toContainEqual([leased, 0]);
  });

  it('records nothing when the webhook is deleted while its attempt is on the wire', async () => {
    const userId = await webhookAt('/gone');
    const [id] = await deliverer.store(userId, 'scan.completed', { scan_id: 'g' });
    expect(await deliverer.attempt(id!)).toBe('skipped');
    expect(await deliveryRow(id!)).toBeUndefined();
  });

  it('bounds the payload: an oversized event is refused and emit stores nothing, without throwing', async () => {
    expect(() => eventPayload('scan.completed', { pad: 'x'.repeat(MAX_PAYLOAD_BYTES) })).toThrow(/above the limit/);
    const userId = await webhookAt('/big');
    await deliverer.emit(userId, 'scan.completed', { pad: 'x'.repeat(MAX_PAYLOAD_BYTES) });
    expect(await database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.userId, userId))).toEqual([]);
    expect(await deliverer.store(randomUUID(), 'scan.completed', {})).toEqual([]);
  });
});
