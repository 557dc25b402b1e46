import PgBoss from 'pg-boss';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriptionsResponseSchema } from '../../common/billing';
import { rawRequest, signUp } from '../testing/http';
import { startTestServer } from '../testing/test-server';
import { BILLING_ROLLOVER_CRON, BILLING_ROLLOVER_QUEUE } from './rollover';

// The local provider's periods end through the job queue in a running server: one pg-boss schedule every minute,
// and a tick job (as the cron sends it) ends a cancelled subscription whose period is over.

let server: Awaited<ReturnType<typeof startTestServer>>;
let client: pg.Pool;
let boss: PgBoss;

beforeAll(async () => {
  server = await startTestServer({ VIBEEVAL_SCAN_RENDER: 'false', VIBEEVAL_SCAN_RATE: '0', VIBEEVAL_SCENARIO_CONCURRENCY: '0' });
  client = new pg.Pool({ connectionString: server.databaseUrl, max: 2 });
  // Another process's client: it sends ticks and keeps no time itself.
  boss = new PgBoss({ db: { executeSql: (text: string, values: unknown[]) => client.query(text, values) }, schema: 'pgboss', schedule: false, supervise: false, migrate: false });
  await boss.start();
}, 60_000);

afterAll(async () => {
  await boss?.stop({ graceful: false, close: false });
  await client?.end();
  await server?.stop();
});

describe('the billing period tick', () => {
  it('is scheduled every minute, and a tick ends the periods that are over', async () => {
    expect((await boss.getSchedules()).filter((entry) => entry.name === BILLING_ROLLOVER_QUEUE)).toEqual([
      expect.objectContaining({ name: BILLING_ROLLOVER_QUEUE, cron: BILLING_ROLLOVER_CRON, timezone: 'UTC' }),
    ]);
    const user = await signUp(server.origin, 'rollover');
    const headers = { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' };
    const created = await rawRequest(server.origin, { method: 'POST', path: '/subscription', headers, body: JSON.stringify({ price_id: 'price_local_pro_month' }) });
    const id = (created.json as { subscription: { id: string } }).subscription.id;
    expect((await rawRequest(server.origin, { method: 'POST', path: `/subscription/${id}/cancel`, headers, body: '{}' })).status).toBe(200);
    // The month went by.
    await client.query(`update subscriptions set current_period_start = now() - interval '31 days', current_period_end = now() - interval '1 minute' where id = $1`, [id]);

    const job = await boss.send(BILLING_ROLLOVER_QUEUE, {});
    const deadline = Date.now() + 20_000;
    for (;;) {
      const state = (await boss.getJobById(BILLING_ROLLOVER_QUEUE, job!))?.state;
      if (state === 'completed') break;
      if (state === 'failed' || Date.now() > deadline) throw new Error(`the tick job ended ${state ?? 'nowhere'}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const listed = subscriptionsResponseSchema.parse((await rawRequest(server.origin, { method: 'GET', path: '/subscriptions', headers })).json);
    expect(listed.subscriptions).toEqual([expect.objectContaining({ id, status: 'canceled', cancel_at_period_end: true })]);
  }, 60_000);
});
