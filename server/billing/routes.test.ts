import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILLING_ERRORS, createdSubscriptionSchema, plansResponseSchema, subscriptionResponseSchema, subscriptionsResponseSchema } from '../../common/billing';
import { callApi, signUp } from '../testing/http';
import { startTestServer } from '../testing/test-server';

// The billing calls of spec section 7 against a running server with the local provider (the default): the
// plans without a session, a subscription's whole life through the API, the refusals, another user's id, and the
// plan limits following each change at once.

let server: Awaited<ReturnType<typeof startTestServer>>;
let user: { token: string; id: string };
let other: { token: string; id: string };

const call = (method: string, path: string, token?: string, body?: unknown) => callApi(server.origin, method, path, { token, body });

/** The public API plan of the account (GET /api_usage), which follows the subscription's tier through the plan gate. */
const apiPlan = async (token: string) => ((await call('GET', '/api_usage', token)).json as { plan: string }).plan;

beforeAll(async () => {
  // Accounts without a subscription get Basic's limits here, so that a subscription's tier shows in them.
  server = await startTestServer({ VIBEEVAL_UNSUBSCRIBED_TIER: 'basic', VIBEEVAL_API_PLAN: '', VIBEEVAL_SCAN_CONCURRENCY: '0', VIBEEVAL_SCENARIO_CONCURRENCY: '0' });
  user = await signUp(server.origin, 'billing');
  other = await signUp(server.origin, 'billing-other');
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

describe('GET /plans', () => {
  it('lists the local plans without a session, in pricing order, and says no payment is collected', async () => {
    const answer = await call('GET', '/plans');
    expect(answer.status).toBe(200);
    const body = plansResponseSchema.parse(answer.json);
    expect(body.provider).toBe('local');
    expect(body.plans.map((plan) => [plan.price_id, plan.product_name, plan.unit_amount, plan.currency, plan.interval])).toEqual([
      ['price_local_basic_month', 'Basic', 700, 'usd', 'month'],
      ['price_local_pro_month', 'Pro', 1500, 'usd', 'month'],
      ['price_local_enterprise_month', 'Enterprise', 4900, 'usd', 'month'],
    ]);
  });
});

describe('a subscription through the API', () => {
  let subscriptionId: string;

  it('needs a session for the subscription calls', async () => {
    for (const [method, path, body] of [
      ['GET', '/subscriptions', undefined],
      ['POST', '/subscription', { price_id: 'price_local_pro_month' }],
      ['POST', '/subscription/sub_local_x/cancel', {}],
    ] as const) {
      expect((await call(method, path, undefined, body)).status, path).toBe(401);
    }
  });

  it('refuses a price that is not a plan', async () => {
    const answer = await call('POST', '/subscription', user.token, { price_id: 'price_unknown' });
    expect({ status: answer.status, body: answer.json }).toEqual({ status: 400, body: { detail: BILLING_ERRORS.unknownPrice } });
    expect((await call('POST', '/subscription', user.token, {})).json).toEqual({ detail: 'price_id is required' });
  });

  it("subscribes: active at once, a month long, no invoice to pay, and the API plan is Basic's", async () => {
    const before = Date.now();
    const answer = await call('POST', '/subscription', user.token, { price_id: 'price_local_basic_month' });
    expect(answer.status, answer.text).toBe(201);
    const { subscription } = createdSubscriptionSchema.parse(answer.json);
    subscriptionId = subscription.id;
    expect(subscription).toMatchObject({
      status: 'active',
      price_id: 'price_local_basic_month',
      cancel_at_period_end: false,
      pending_price_id: null,
      provider: 'local',
      latest_invoice: null,
    });
    expect(subscription.id).toMatch(/^sub_local_[0-9a-f]{24}$/);
    const days = (subscription.current_period_end * 1000 - before) / 86_400_000;
    expect(days).toBeGreaterThan(27.9);
    expect(days).toBeLessThan(31.1);
    const listed = subscriptionsResponseSchema.parse((await call('GET', '/subscriptions', user.token)).json);
    expect(listed.subscriptions.map((s) => s.id)).toEqual([subscription.id]);
    // Basic has no API access: GET /api_usage answers no plan.
    expect(await apiPlan(user.token)).toBeNull();
  });

  it('refuses a second active subscription', async () => {
    const answer = await call('POST', '/subscription', user.token, { price_id: 'price_local_pro_month' });
    expect({ status: answer.status, body: answer.json }).toEqual({ status: 409, body: { detail: BILLING_ERRORS.alreadySubscribed } });
  });

  it('upgrades at once, and the new limits apply to the next request', async () => {
    // Read just before: the plan gate keeps a plan for a second, so only its forgetting makes the next read new.
    expect(await apiPlan(user.token)).toBeNull();
    const answer = await call('POST', `/subscription/${subscriptionId}/upgrade`, user.token, { new_price_id: 'price_local_pro_month' });
    expect(answer.status, answer.text).toBe(200);
    expect(subscriptionResponseSchema.parse(answer.json).subscription).toMatchObject({
      id: subscriptionId,
      price_id: 'price_local_pro_month',
      pending_price_id: null,
      status: 'active',
    });
    expect(await apiPlan(user.token)).toBe('pro');
  });

  it('schedules a downgrade for the end of the period and keeps the plan until then', async () => {
    const same = await call('POST', `/subscription/${subscriptionId}/upgrade`, user.token, { new_price_id: 'price_local_pro_month' });
    expect({ status: same.status, body: same.json }).toEqual({ status: 400, body: { detail: BILLING_ERRORS.samePrice } });
    const answer = await call('POST', `/subscription/${subscriptionId}/upgrade`, user.token, { new_price_id: 'price_local_basic_month' });
    expect(subscriptionResponseSchema.parse(answer.json).subscription).toMatchObject({ price_id: 'price_local_pro_month', pending_price_id: 'price_local_basic_month' });
    expect(await apiPlan(user.token)).toBe('pro');
  });

  it('cancels at the end of the period: still active, access kept, a second cancel refused', async () => {
    const answer = await call('POST', `/subscription/${subscriptionId}/cancel`, user.token, {});
    expect(subscriptionResponseSchema.parse(answer.json).subscription).toMatchObject({ status: 'active', cancel_at_period_end: true, price_id: 'price_local_pro_month' });
    const again = await call('POST', `/subscription/${subscriptionId}/cancel`, user.token, {});
    expect({ status: again.status, body: again.json }).toEqual({ status: 409, body: { detail: BILLING_ERRORS.alreadyCancelled } });
    expect(await apiPlan(user.token)).toBe('pro');
  });

  it("answers 404 for another user's subscription and changes nothing of it", async () => {
    for (const [path, body] of [
      [`/subscription/${subscriptionId}/upgrade`, { new_price_id: 'price_local_enterprise_month' }],
      [`/subscription/${subscriptionId}/cancel`, {}],
    ] as const) {
      const answer = await call('POST', path, other.token, body);
      expect({ status: answer.status, body: answer.json }, path).toEqual({ status: 404, body: { detail: BILLING_ERRORS.notFound } });
    }
    expect(subscriptionsResponseSchema.parse((await call('GET', '/subscriptions', other.token)).json).subscriptions).toEqual([]);
    const mine = subscriptionsResponseSchema.parse((await call('GET', '/subscriptions', user.token)).json).subscriptions;
    expect(mine[0]).toMatchObject({ price_id: 'price_local_pro_month', cancel_at_period_end: true });
  });

  it('records each change on the Events page', async () => {
    const events = (await call('GET', '/events/recent?limit=50', user.token)).json as { extra: { description?: string } | null }[];
    const texts = events.map((event) => event.extra?.description).filter((text) => text?.includes('plan') || text?.includes('subscription'));
    expect(texts).toEqual([
      'Pro subscription cancelled: access until the end of the billing period',
      'Downgrade to the Basic plan scheduled for the end of the billing period',
      'Upgraded to the Pro plan',
      'Subscribed to the Basic plan',
    ]);
  });
});
