import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILLING_ERRORS, createdSubscriptionSchema, plansResponseSchema, subscriptionResponseSchema, subscriptionsResponseSchema } from '../../common/billing';
import { openDatabase, type Database } from '../db';
import { billingCustomers } from '../db/schema';
import { callApi, rawRequest, signUp, type RawAnswer } from '../testing/http';
import { startTestServer } from '../testing/test-server';
import { PlanGate } from './plan-gate';
import { createBilling } from './setup';
import { StripeStandIn } from './testing/stripe-stand-in';

// The Stripe provider through the real server against the Stripe stand-in (server/billing/testing/stripe-stand-in.ts,
// a local server speaking the part of Stripe's API the provider uses): prices copied into GET /plans, a subscription
// created unpaid with its hosted invoice, webhooks signed with Stripe's own test helper accepted and a forged one
// refused, an upgrade prorated at once, a downgrade as a two-phase subscription schedule, cancellation at the
// period's end, and an account's subscriptions ended at once.

const SECRET_KEY = `sk_test_${randomBytes(12).toString('hex')}`;
const WEBHOOK_SECRET = `whsec_${randomBytes(16).toString('hex')}`;
const standIn = new StripeStandIn(SECRET_KEY);
const signer = new Stripe(SECRET_KEY).webhooks;
let server: Awaited<ReturnType<typeof startTestServer>>;
let database: Database;
let user: { token: string; id: string };
let subscriptionId: string;

const call = (method: string, path: string, token?: string, body?: unknown) => callApi(server.origin, method, path, { token, body });

/** POSTs a Stripe event to the server, signed as Stripe signs it (or with another secret: a forgery). */
function sendEvent(type: string, object: Record<string, unknown>, secret: string | null = WEBHOOK_SECRET): Promise<RawAnswer> {
  const payload = JSON.stringify({ id: `evt_${randomBytes(8).toString('hex')}`, object: 'event', type, created: Math.floor(Date.now() / 1000), livemode: false, data: { object } });
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
  if (secret) headers['stripe-signature'] = signer.generateTestHeaderString({ payload, secret });
  return rawRequest(server.origin, { method: 'POST', path: '/stripe/webhook', headers, body: payload });
}

const mine = async () => subscriptionsResponseSchema.parse((await call('GET', '/subscriptions', user.token)).json).subscriptions;

beforeAll(async () => {
  standIn.setPrices([
    { id: 'price_pro_monthly', product: { id: 'prod_pro', name: 'Vibe Pro', description: 'For growing teams' }, unit_amount: 2900, interval: 'month' },
    { id: 'price_basic_monthly', product: { id: 'prod_basic', name: 'Vibe Basic' }, unit_amount: 900, interval: 'month' },
    { id: 'price_enterprise_monthly', product: { id: 'prod_enterprise', name: 'Vibe Enterprise' }, unit_amount: 9900, interval: 'month' },
    // Not plans: a metered price has no amount, and an archived product sells nothing.
    { id: 'price_metered', product: { id: 'prod_usage', name: 'API usage' }, unit_amount: null, interval: 'month' },
    { id: 'price_old', product: { id: 'prod_old', name: 'Legacy Pro', active: false }, unit_amount: 1000, interval: 'month' },
  ]);
  await standIn.start();
  server = await startTestServer({
    VIBEEVAL_BILLING: 'stripe',
    STRIPE_SECRET_KEY: SECRET_KEY,
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: standIn.origin,
    VIBEEVAL_SCAN_CONCURRENCY: '0',
    VIBEEVAL_SCENARIO_CONCURRENCY: '0',
  });
  // The server's own database, for what no route shows (customers) and for closing an account.
  database = await openDatabase({ databaseUrl: server.databaseUrl, embeddedDir: '', embeddedPassword: '', log: () => undefined });
  user = await signUp(server.origin, 'stripe');
}, 60_000);

afterAll(async () => {
  await database?.close();
  await server?.stop();
  await standIn.stop();
});

describe('the Stripe provider against the Stripe stand-in', () => {
  it("lists Stripe's active prices with their products as the plans, cheapest first", async () => {
    const body = plansResponseSchema.parse((await call('GET', '/plans')).json);
    expect(body.provider).toBe('stripe');
    expect(body.plans).toEqual([
      { price_id: 'price_basic_monthly', product_id: 'prod_basic', product_name: 'Vibe Basic', product_description: null, unit_amount: 900, currency: 'usd', interval: 'month' },
      {
        price_id: 'price_pro_monthly',
        product_id: 'prod_pro',
        product_name: 'Vibe Pro',
        product_description: 'For growing teams',
        unit_amount: 2900,
        currency: 'usd',
        interval: 'month',
      },
      {
        price_id: 'price_enterprise_monthly',
        product_id: 'prod_enterprise',
        product_name: 'Vibe Enterprise',
        product_description: null,
        unit_amount: 9900,
        currency: 'usd',
        interval: 'month',
      },
    ]);
    const list = standIn.requests.find((request) => request.path === '/v1/prices');
    expect(list?.body).toMatchObject({ active: 'true', expand: ['data.product'] });
    // The local plans are not offered when Stripe bills.
    expect((await call('POST', '/subscription', user.token, { price_id: 'price_local_pro_month' })).json).toEqual({ detail: BILLING_ERRORS.unknownPrice });
  });

  it('creates the subscription unpaid with a customer of its own, and answers the hosted invoice to pay', async () => {
    const answer = await call('POST', '/subscription', user.token, { price_id: 'price_pro_monthly' });
    expect(answer.status, answer.text).toBe(201);
    const { subscription } = createdSubscriptionSchema.parse(answer.json);
    subscriptionId = subscription.id;
    expect(subscription).toMatchObject({ status: 'incomplete', price_id: 'price_pro_monthly', provider: 'stripe', cancel_at_period_end: false });
    expect(subscription.latest_invoice?.hosted_invoice_url).toMatch(new RegExp(`^${standIn.origin}/i/`));
    const created = standIn.requests.find((request) => request.method === 'POST' && request.path === '/v1/subscriptions');
    expect(created?.body).toMatchObject({ items: [{ price: 'price_pro_monthly' }], payment_behavior: 'default_incomplete', expand: ['latest_invoice'] });
    const [customer] = await database.db.select().from(billingCustomers).where(eq(billingCustomers.userId, user.id));
    expect(customer).toMatchObject({ provider: 'stripe', customerId: created?.body.customer });
    expect(standIn.customers.get(customer!.customerId)).toMatchObject({ metadata: { vibeeval_user_id: user.id } });
  });

  it('refuses a forged or unsigned webhook and changes nothing', async () => {
    const forged = { ...standIn.subscription(subscriptionId), status: 'active' };
    for (const secret of [`whsec_${randomBytes(16).toString('hex')}`, null]) {
      const answer = await sendEvent('customer.subscription.updated', forged, secret);
      expect({ status: answer.status, body: answer.json }).toEqual({ status: 400, body: { detail: BILLING_ERRORS.webhookSignature } });
    }
    // A signed body that was altered afterwards is a forgery too.
    const payload = JSON.stringify({ id: 'evt_x', object: 'event', type: 'customer.subscription.updated', data: { object: forged } });
    const header = signer.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    const altered = await rawRequest(server.origin, {
      method: 'POST',
      path: '/stripe/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': header },
      body: payload.replace('"active"', '"activE"'),
    });
    expect(altered.status).toBe(400);
    expect((await mine())[0]).toMatchObject({ id: subscriptionId, status: 'incomplete' });
  });

  it('answers hostile webhook requests with a detail and changes nothing', async () => {
    const post = (headers: Record<string, string>, body: string | Buffer) => rawRequest(server.origin, { method: 'POST', path: '/stripe/webhook', headers, body });
    const signed = (payload: string) => signer.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    const cases: [RawAnswer, number, string][] = [
      [await post({ 'content-type': 'text/plain', 'stripe-signature': signed('{}') }, '{}'), 415, "content-type: 'text/plain' is not accepted; send application/json"],
      [await post({ 'content-type': 'application/json', 'stripe-signature': signed('x') }, `{"a":"${'x'.repeat(300_000)}"}`), 413, 'body: larger than the limit of 262144 bytes'],
      [await post({ 'content-type': 'application/json', 'stripe-signature': 'garbage' }, '{}'), 400, BILLING_ERRORS.webhookSignature],
      [await post({ 'content-type': 'application/json', 'stripe-signature': signed('') }, ''), 400, BILLING_ERRORS.webhookSignature],
      // Signed, but not JSON: Stripe never sends it, and it is refused like a forgery.
      [await post({ 'content-type': 'application/json', 'stripe-signature': signed('{"a":') }, '{"a":'), 400, BILLING_ERRORS.webhookSignature],
    ];
    for (const [answer, status, detail] of cases) expect({ status: answer.status, body: answer.json }).toEqual({ status, body: { detail } });
    expect((await mine())[0]).toMatchObject({ id: subscriptionId, status: 'incomplete' });
  });

  it("answers a large webhook about as fast as a small one (its bytes are not walked by the app's input checks)", async () => {
    const post = (size: number) => {
      const payload = JSON.stringify({ id: 'evt_big', object: 'event', type: 'ping', pad: 'x'.repeat(size) });
      return rawRequest(server.origin, { method: 'POST', path: '/stripe/webhook', headers: { 'content-type': 'application/json', 'stripe-signature': 'forged' }, body: payload });
    };
    const median = async (size: number) => {
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        expect((await post(size)).status).toBe(400);
        times.push(performance.now() - started);
      }
      return times.sort((a, b) => a - b)[2]!;
    };
    await median(2_000);
    const [small, large] = [await median(2_000), await median(250_000)];
    console.log(`stripe webhook, forged signature: 2 KB ${small.toFixed(1)} ms, 250 KB ${large.toFixed(1)} ms (median of 5)`);
    // Walking 250 KB entry by entry took about 0.5 s; reading it as a whole takes a few milliseconds.
    expect(large, `2 KB: ${small.toFixed(1)} ms, 250 KB: ${large.toFixed(1)} ms`).toBeLessThan(Math.max(small * 10, 250));
  });

  it('takes a signed webhook: the paid subscription becomes active and current', async () => {
    const answer = await sendEvent('customer.subscription.updated', standIn.pay(subscriptionId));
    expect({ status: answer.status, body: answer.json }).toEqual({ status: 200, body: { received: true } });
    expect((await mine())[0]).toMatchObject({ id: subscriptionId, status: 'active', price_id: 'price_pro_monthly' });
    const again = await call('POST', '/subscription', user.token, { price_id: 'price_basic_monthly' });
    expect({ status: again.status, body: again.json }).toEqual({ status: 409, body: { detail: BILLING_ERRORS.alreadySubscribed } });
  });

  it('upgrades at once with proration', async () => {
    const answer = await call('POST', `/subscription/${subscriptionId}/upgrade`, user.token, { new_price_id: 'price_enterprise_monthly' });
    expect(subscriptionResponseSchema.parse(answer.json).subscription).toMatchObject({ price_id: 'price_enterprise_monthly', pending_price_id: null, status: 'active' });
    const update = standIn.requests.filter((request) => request.method === 'POST' && request.path === `/v1/subscriptions/${subscriptionId}`).at(-1);
    expect(update?.body).toMatchObject({ items: [{ price: 'price_enterprise_monthly' }], proration_behavior: 'always_invoice' });
  });

  it('schedules a downgrade for the period end as a subscription schedule of two phases', async () => {
    const answer = await call('POST', `/subscription/${subscriptionId}/upgrade`, user.token, { new_price_id: 'price_basic_monthly' });
    expect(subscriptionResponseSchema.parse(answer.json).subscription).toMatchObject({ price_id: 'price_enterprise_monthly', pending_price_id: 'price_basic_monthly' });
    const sub = standIn.subscriptions.get(subscriptionId)!;
    const schedule = standIn.schedules.get(sub.schedule!)!;
    expect(schedule.end_behavior).toBe('release');
    expect(schedule.phases).toEqual([
      { start_date: sub.start, end_date: sub.end, items: [{ price: 'price_enterprise_monthly', quantity: 1 }] },
      { start_date: sub.end, end_date: null, items: [{ price: 'price_basic_monthly', quantity: 1 }] },
    ]);
    // Stripe's webhook for the schedule's attachment keeps the downgrade pending.
    await sendEvent('customer.subscription.updated', standIn.subscription(subscriptionId));
    expect((await mine())[0]).toMatchObject({ price_id: 'price_enterprise_monthly', pending_price_id: 'price_basic_monthly' });
  });

  it('applies the downgrade when Stripe says the period ended', async () => {
    const before = (await mine())[0]!.current_period_end;
    expect((await sendEvent('customer.subscription.updated', standIn.endPeriod(subscriptionId))).status).toBe(200);
    const after = (await mine())[0]!;
    expect(after).toMatchObject({ price_id: 'price_basic_monthly', pending_price_id: null, status: 'active' });
    expect(after.current_period_end).toBeGreaterThan(before);
    const events = (await call('GET', '/events/recent?limit=50', user.token)).json as { extra: { description?: string } | null }[];
    expect(events[0]?.extra?.description).toBe('Downgraded to the Basic plan');
  });

  it('cancels at the period end (a pending schedule let go first) and ends with the deleted event', async () => {
    await call('POST', `/subscription/${subscriptionId}/upgrade`, user.token, { new_price_id: 'price_pro_monthly' });
    await call('POST', `/subscription/${subscriptionId}/upgrade`, user.token, { new_price_id: 'price_basic_monthly' });
    expect(standIn.subscriptions.get(subscriptionId)!.schedule).not.toBeNull();
    const answer = await call('POST', `/subscription/${subscriptionId}/cancel`, user.token, {});
    expect(subscriptionResponseSchema.parse(answer.json).subscription).toMatchObject({
      status: 'active',
      cancel_at_period_end: true,
      pending_price_id: null,
      price_id: 'price_pro_monthly',
    });
    expect(standIn.subscriptions.get(subscriptionId)).toMatchObject({ cancel_at_period_end: true, schedule: null });
    const ended = standIn.endPeriod(subscriptionId);
    expect((await sendEvent('customer.subscription.deleted', ended)).status).toBe(200);
    expect((await mine())[0]).toMatchObject({ status: 'canceled' });
  });

  it('reads the subscription as Stripe has it now when an older event arrives late', async () => {
    const stale = { ...standIn.subscription(subscriptionId), status: 'active', cancel_at_period_end: false };
    expect((await sendEvent('customer.subscription.updated', stale)).status).toBe(200);
    expect((await mine())[0]).toMatchObject({ id: subscriptionId, status: 'canceled' });
  });

  it('ignores a signed event of a customer it does not know', async () => {
    const stranger = { ...standIn.subscription(subscriptionId), id: 'sub_stranger', customer: 'cus_stranger' };
    expect((await sendEvent('customer.subscription.created', stranger)).status).toBe(200);
    expect((await mine()).map((s) => s.id)).not.toContain('sub_stranger');
  });

  it('replaces a checkout left unpaid instead of keeping two open', async () => {
    const first = createdSubscriptionSchema.parse((await call('POST', '/subscription', user.token, { price_id: 'price_basic_monthly' })).json).subscription;
    const second = createdSubscriptionSchema.parse((await call('POST', '/subscription', user.token, { price_id: 'price_pro_monthly' })).json).subscription;
    expect(second.latest_invoice?.hosted_invoice_url).toEqual(expect.any(String));
    expect(standIn.subscriptions.get(first.id)?.status).toBe('canceled');
    const listed = await mine();
    expect(listed.find((s) => s.id === first.id)?.status).toBe('canceled');
    expect(listed.find((s) => s.id === second.id)?.status).toBe('incomplete');
  });

  it('ends every active subscription at Stripe at once when the account closes', async () => {
    const created = createdSubscriptionSchema.parse((await call('POST', '/subscription', user.token, { price_id: 'price_pro_monthly' })).json).subscription;
    await sendEvent('customer.subscription.updated', standIn.pay(created.id));
    const billing = createBilling({
      config: { provider: 'stripe', unsubscribedTier: 'basic', stripe: { secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, apiUrl: standIn.origin } },
      db: database.db,
      planGate: new PlanGate(database.pool, { unsubscribedTier: 'basic', unsubscribedApiPlan: null }),
      logger: { warn: () => undefined } as never,
    });
    expect(await billing.closeAccount(user.id)).toBe(1);
    expect(standIn.subscriptions.get(created.id)?.status).toBe('canceled');
    expect(standIn.requests.at(-1)).toMatchObject({ method: 'DELETE', path: `/v1/subscriptions/${created.id}` });
    expect((await mine()).find((s) => s.id === created.id)?.status).toBe('canceled');
  });

  it('answers a clear error when Stripe refuses the key', async () => {
    const billing = createBilling({
      config: { provider: 'stripe', unsubscribedTier: 'basic', stripe: { secretKey: 'sk_test_wrong', webhookSecret: null, apiUrl: standIn.origin } },
      db: database.db,
      planGate: { forget: () => undefined },
      logger: { warn: () => undefined } as never,
    });
    await expect(billing.create(`${user.id.slice(0, -4)}0000`, 'price_pro_monthly')).rejects.toMatchObject({ statusCode: 502 });
  });
});
