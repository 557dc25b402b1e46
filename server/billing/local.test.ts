import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILLING_ERRORS } from '../../common/billing';
import type { WebhookEventType } from '../../common/webhooks';
import type { Database } from '../db';
import { openFreshDatabase } from '../testing/fresh-database';
import { subscriptions } from '../db/schema';
import { PlanGate } from './plan-gate';
import type { ChangedSubscription } from './provider';
import { nextPeriod, periodEnd } from './providers/local';
import { BillingService } from './service';
import { createBilling } from './setup';

// Every transition of the local provider against a real PostgreSQL with a clock the test moves: subscribe,
// upgrade at once, downgrade at the period's end, cancel with access until the end, the rollover of each kind of
// period (also after a server was off for months), refusals, account closing, and what each change announces.

let database: Database;
let clock = new Date('2026-01-31T10:00:00.000Z');
const emitted: { userId: string; type: WebhookEventType; data: Record<string, unknown> }[] = [];
const recorded: { userId: string; extra?: Record<string, unknown> }[] = [];
let gate: PlanGate;
let billing: BillingService;

beforeAll(async () => {
  database = await openFreshDatabase();
  // A plan gate that keeps plans for an hour: only billing's forgetting makes it read a change.
  gate = new PlanGate(database.pool, { unsubscribedTier: 'basic', unsubscribedApiPlan: null, ttlMs: 3_600_000 });
  billing = createBilling({
    config: { provider: 'local', unsubscribedTier: 'basic', stripe: null },
    db: database.db,
    planGate: gate,
    events: { record: async (batch) => void recorded.push(...batch) },
    webhooks: { emit: async (owner, type, data) => void emitted.push({ userId: typeof owner === 'string' ? owner : owner.userId, type, data }) },
    logger: { warn: () => undefined } as never,
    now: () => clock,
  });
}, 60_000);

afterAll(async () => {
  await database?.close();
});

const unix = (iso: string) => Date.parse(iso) / 1000;
const rowOf = async (id: string) => (await database.db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0]!;

describe('periods', () => {
  it('keep the day of the month the subscription started, cut to short months', () => {
    const start = new Date('2026-01-31T10:00:00.000Z');
    const feb = periodEnd(start, 'month');
    expect(feb.toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(periodEnd(feb, 'month', 31).toISOString()).toBe('2026-03-31T10:00:00.000Z');
    expect(periodEnd(new Date('2026-12-15T00:00:00Z'), 'month').toISOString()).toBe('2027-01-15T00:00:00.000Z');
    expect(periodEnd(new Date('2028-02-29T00:00:00Z'), 'year').toISOString()).toBe('2029-02-28T00:00:00.000Z');
    expect(periodEnd(start, 'week').toISOString()).toBe('2026-02-07T10:00:00.000Z');
  });

  it('skip the periods a server missed while it was off', () => {
    const next = nextPeriod(new Date('2026-02-28T10:00:00Z'), 'month', 31, new Date('2026-06-01T00:00:00Z'));
    expect([next.start.toISOString(), next.end.toISOString()]).toEqual(['2026-05-31T10:00:00.000Z', '2026-06-30T10:00:00.000Z']);
  });
});

describe('a subscription with the local provider', () => {
  const user = randomUUID();
  let id: string;
  /** The changes of this test's user (other tests' subscriptions roll over too). */
  const mine = (changed: ChangedSubscription[]) => changed.filter((item) => item.subscription.userId === user);
  const lastEmitted = () => emitted.filter((item) => item.userId === user).at(-1);
  const lastRecorded = () => recorded.filter((item) => item.userId === user).at(-1);

  it('subscribes for one calendar month from now, with no payment', async () => {
    clock = new Date('2026-01-31T10:00:00.000Z');
    expect((await gate.planOf(user)).tier).toBe('basic');
    const created = await billing.create(user, 'price_local_pro_month');
    id = created.subscription.id;
    expect(created.hostedInvoiceUrl).toBeNull();
    expect(created.subscription).toMatchObject({ status: 'active', priceId: 'price_local_pro_month', provider: 'local', cancelAtPeriodEnd: false, pendingPriceId: null });
    expect(created.subscription.currentPeriodEnd.toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect((await gate.planOf(user)).tier).toBe('pro');
    expect(lastEmitted()).toMatchObject({
      userId: user,
      type: 'subscription.updated',
      data: { change: 'created', subscription_id: id, status: 'active', plan: { tier: 'pro', unit_amount: 1500 } },
    });
    expect(lastRecorded()).toMatchObject({ userId: user, extra: { description: 'Subscribed to the Pro plan', subscription_id: id } });
  });

  it('refuses a second subscription and unknown prices', async () => {
    await expect(billing.create(user, 'price_local_basic_month')).rejects.toMatchObject({ statusCode: 409, message: BILLING_ERRORS.alreadySubscribed });
    await expect(billing.create(randomUUID(), 'price_nope')).rejects.toMatchObject({ statusCode: 400, message: BILLING_ERRORS.unknownPrice });
    await expect(billing.change(user, id, 'price_nope')).rejects.toMatchObject({ statusCode: 400, message: BILLING_ERRORS.unknownPrice });
    await expect(billing.change(user, id, 'price_local_pro_month')).rejects.toMatchObject({ statusCode: 400, message: BILLING_ERRORS.samePrice });
    await expect(billing.change(randomUUID(), id, 'price_local_basic_month')).rejects.toMatchObject({ statusCode: 404, message: BILLING_ERRORS.notFound });
  });

  it('lets only one of two simultaneous first subscriptions through', async () => {
    const someone = randomUUID();
    const results = await Promise.allSettled([billing.create(someone, 'price_local_basic_month'), billing.create(someone, 'price_local_pro_month')]);
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect((await billing.subscriptions(someone)).filter((s) => s.status === 'active')).toHaveLength(1);
  });

  it('schedules a downgrade for the end of the period, keeping the tier until then', async () => {
    clock = new Date('2026-02-10T00:00:00.000Z');
    const { subscription, change } = await billing.change(user, id, 'price_local_basic_month');
    expect(change).toBe('downgrade_scheduled');
    expect(subscription).toMatchObject({ priceId: 'price_local_pro_month', pendingPriceId: 'price_local_basic_month' });
    expect((await gate.planOf(user)).tier).toBe('pro');
    expect(lastRecorded()?.extra?.description).toBe('Downgrade to the Basic plan scheduled for the end of the billing period');
    // Nothing is due before the period ends.
    expect(mine(await billing.rollover(new Date('2026-02-28T09:59:59.000Z')))).toEqual([]);
  });

  it('applies the downgrade when the period ends and starts the next period', async () => {
    const changed = mine(await billing.rollover(new Date('2026-02-28T10:00:30.000Z')));
    expect(changed.map((item) => [item.subscription.id, item.change])).toEqual([[id, 'downgraded']]);
    const row = await rowOf(id);
    expect(row).toMatchObject({ status: 'active', priceId: 'price_local_basic_month', pendingPriceId: null });
    expect([row.currentPeriodStart.toISOString(), row.currentPeriodEnd.toISOString()]).toEqual(['2026-02-28T10:00:00.000Z', '2026-03-31T10:00:00.000Z']);
    expect((await gate.planOf(user)).tier).toBe('basic');
    expect(lastEmitted()).toMatchObject({ type: 'subscription.updated', data: { change: 'downgraded', price_id: 'price_local_basic_month' } });
  });

  it('upgrades at once, keeping the period, and clears a scheduled downgrade', async () => {
    clock = new Date('2026-03-05T00:00:00.000Z');
    await billing.change(user, id, 'price_local_pro_month');
    await billing.change(user, id, 'price_local_basic_month');
    const { subscription, change } = await billing.change(user, id, 'price_local_enterprise_month');
    expect(change).toBe('upgraded');
    expect(subscription).toMatchObject({ priceId: 'price_local_enterprise_month', pendingPriceId: null });
    expect(subscription.currentPeriodEnd.toISOString()).toBe('2026-03-31T10:00:00.000Z');
    expect((await gate.planOf(user)).tier).toBe('enterprise');
  });

  it('renews an ordinary subscription for the next period', async () => {
    const changed = mine(await billing.rollover(new Date('2026-03-31T10:01:00.000Z')));
    expect(changed.map((item) => item.change)).toEqual(['renewed']);
    expect((await rowOf(id)).currentPeriodEnd.toISOString()).toBe('2026-04-30T10:00:00.000Z');
    expect((await billing.subscriptions(user))[0]).toMatchObject({ current_period_end: unix('2026-04-30T10:00:00.000Z'), price_id: 'price_local_enterprise_month' });
  });

  it('cancels at the end of the period: active with access until then, canceled after', async () => {
    clock = new Date('2026-04-02T00:00:00.000Z');
    const cancelled = await billing.cancel(user, id);
    expect(cancelled).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });
    await expect(billing.cancel(user, id)).rejects.toMatchObject({ statusCode: 409, message: BILLING_ERRORS.alreadyCancelled });
    expect((await gate.planOf(user)).tier).toBe('enterprise');
    expect(mine(await billing.rollover(new Date('2026-04-30T09:00:00.000Z')))).toEqual([]);
    const changed = mine(await billing.rollover(new Date('2026-04-30T10:00:00.000Z')));
    expect(changed.map((item) => [item.subscription.status, item.change])).toEqual([['canceled', 'ended']]);
    expect(await gate.planOf(user)).toMatchObject({ tier: 'basic', subscribed: false });
    await expect(billing.change(user, id, 'price_local_pro_month')).rejects.toMatchObject({ statusCode: 409, message: BILLING_ERRORS.notActive });
    await expect(billing.cancel(user, id)).rejects.toMatchObject({ statusCode: 409, message: BILLING_ERRORS.notActive });
    // A new subscription may start now that none is active; the list shows the newest first.
    const again = await billing.create(user, 'price_local_basic_month');
    expect((await billing.subscriptions(user)).map((s) => [s.id, s.status])).toEqual([
      [again.subscription.id, 'active'],
      [id, 'canceled'],
    ]);
  });

  it('ends every active subscription at once when the account closes', async () => {
    expect(await billing.closeAccount(user)).toBe(1);
    expect((await billing.subscriptions(user)).every((s) => s.status === 'canceled')).toBe(true);
    expect((await gate.planOf(user)).subscribed).toBe(false);
    expect(await billing.closeAccount(user)).toBe(0);
  });
});
