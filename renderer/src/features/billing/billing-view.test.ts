import type { Plan, Subscription } from '@common/billing';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/http';
import {
  billingErrorMessage,
  canCancel,
  cancelConfirmation,
  compareColumns,
  emptyFilterText,
  filterCards,
  historyRow,
  planButtonLabel,
  planCards,
  statusText,
  subscriptionFeatures,
  summaryView,
  tierOf,
} from './billing-view';
import { AUTH_REQUIRED_TOAST } from './texts';

const plan = (tier: string, amount: number, extra: Partial<Plan> = {}): Plan => ({
  price_id: `price_${tier.toLowerCase()}`,
  product_id: `Prod_${tier}`,
  product_name: tier,
  product_description: null,
  unit_amount: amount,
  currency: 'usd',
  interval: 'month',
  ...extra,
});
/** The three items of a list, typed as present (the lists here always have three). */
const three = <T>(list: T[]) => list as [T, T, T];
const PLANS = three([plan('Basic', 700), plan('Pro', 1500), plan('Enterprise', 4900)]);
// 1767225600 = January 1, 2026 00:00 UTC; noon avoids a time zone moving the date.
const END = 1767225600 + 12 * 3600;
const sub = (extra: Partial<Subscription> = {}): Subscription => ({
  id: 'sub_local_1',
  status: 'active',
  current_period_end: END,
  price_id: 'price_pro',
  cancel_at_period_end: false,
  pending_price_id: null,
  provider: 'local',
  ...extra,
});

describe('planCards', () => {
  it('builds the spec card: lowercased product id, en-US price without decimals, period, default description, tier features, Pro popular', () => {
    const [basic, pro, enterprise] = three(planCards(PLANS, null));
    expect(basic).toEqual({
      id: 'prod_basic',
      tier: 'basic',
      name: 'Basic',
      price: '$7',
      period: '/month',
      description: 'Essential security for basic projects',
      // The spec's tier features word for word, then what the enforced limits promise.
      features: [
        '2 Projects',
        'Basic Security Reports (HTML)',
        'Common Vulnerability Detection',
        'Monthly Monitoring',
        'Single user',
        '2 AI agent scenarios',
        'HTML reports',
        'Monthly scheduled re-scans',
      ],
      priceId: 'price_basic',
      action: 'upgrade',
      popular: false,
    });
    expect(pro.popular).toBe(true);
    expect(enterprise.popular).toBe(false);
    expect(enterprise.features).toContain('Dedicated Support');
    expect(pro.features).toEqual(
      expect.arrayContaining(['Full Reports (PDF, CSV, JSON)', 'HTML, PDF, CSV, JSON and SARIF reports', 'Up to 5 users', 'API access (1,000 requests/day)']),
    );
  });
  it('shows a lifetime price with its own period and description, and keeps a product description', () => {
    const [lifetime, described] = three(planCards([plan('Pro Lifetime', 14900, { interval: null }), plan('Pro', 1550, { product_description: 'For teams' })], null));
    expect(lifetime).toMatchObject({ price: '$149', period: '/lifetime', description: 'Lifetime access' });
    // Lifetime Pro: the Pro limits, with its own seats (as the pricing section sells it and the server enforces it).
    expect(lifetime.features).toContain('Up to 10 users');
    expect(described.features).toContain('Up to 5 users');
    expect(described).toMatchObject({ price: '$16', description: 'For teams' });
  });
  it('marks the current price, upgrades above it and downgrades below it', () => {
    expect(planCards(PLANS, sub()).map((card) => card.action)).toEqual(['downgrade', 'current', 'upgrade']);
    expect(planCards(PLANS, sub({ price_id: 'price_gone' })).map((card) => card.action)).toEqual(['upgrade', 'upgrade', 'upgrade']);
  });
});

describe('filterCards and the empty texts', () => {
  const cards = planCards(PLANS, sub({ price_id: 'price_enterprise' }));
  it('keeps the upgrades, the downgrades or all', () => {
    expect(filterCards(cards, 'all-plans')).toHaveLength(3);
    expect(filterCards(cards, 'upgrades')).toEqual([]);
    expect(filterCards(cards, 'downgrades').map((card) => card.name)).toEqual(['Basic', 'Pro']);
  });
  it('says highest tier under Upgrades and lowest tier otherwise', () => {
    expect(emptyFilterText('upgrades')).toBe("You're already on our highest tier plan!");
    expect(emptyFilterText('downgrades')).toBe("You're already on our lowest tier plan!");
    expect(emptyFilterText('all-plans')).toBe("You're already on our lowest tier plan!");
  });
});

describe('planButtonLabel', () => {
  it('names the action, or Processing... while any request runs', () => {
    expect(planButtonLabel('current', false)).toBe('Current Plan');
    expect(planButtonLabel('upgrade', false)).toBe('Upgrade');
    expect(planButtonLabel('downgrade', false)).toBe('Downgrade');
    expect(planButtonLabel('upgrade', true)).toBe('Processing...');
  });
});

describe('summaryView', () => {
  it('without a subscription: No Active Subscription, the notice and no details', () => {
    expect(summaryView(null, PLANS)).toEqual({
      planTitle: 'No Active Subscription',
      periodLine: null,
      scheduledLine: null,
      notice: "Choose a plan below to get started with vibe-eval's security features",
      statusText: 'No subscription details available',
      cycleText: null,
    });
  });
  it('an active subscription renews: Renews on and Next billing with the en-US long date', () => {
    expect(summaryView(sub(), PLANS)).toMatchObject({
      planTitle: 'Pro Plan',
      periodLine: 'Renews on January 1, 2026',
      statusText: 'Active subscription',
      cycleText: 'Next billing: January 1, 2026',
      scheduledLine: null,
    });
  });
  it('says a downgrade scheduled at period end', () => {
    expect(summaryView(sub({ pending_price_id: 'price_basic' }), PLANS).scheduledLine).toBe('Changes to Basic on January 1, 2026');
  });
  it('a cancellation at period end: Ends on and Access until, no scheduled change', () => {
    expect(summaryView(sub({ cancel_at_period_end: true, pending_price_id: 'price_basic' }), PLANS)).toMatchObject({
      periodLine: 'Ends on January 1, 2026',
      cycleText: 'Access until: January 1, 2026',
      scheduledLine: null,
      statusText: 'Cancelled subscription, ends on January 1, 2026',
    });
  });
  it('an unknown plan counts as Enterprise', () => {
    expect(summaryView(sub({ price_id: 'price_other' }), PLANS).planTitle).toBe('Enterprise Plan');
    expect(tierOf(sub({ price_id: 'price_other' }), PLANS)).toBe('enterprise');
  });
});

describe('statusText', () => {
  it.each([
    ['active', 'Active subscription'],
    ['canceled', 'Cancelled subscription'],
    ['past_due', 'Status: past_due'],
  ])('%s -> %s', (status, expected) => expect(statusText(status)).toBe(expected));
});

describe('historyRow', () => {
  it('one row: tier plan name, price, Current Period, Active', () => {
    expect(historyRow(sub(), PLANS)).toEqual({ name: 'Pro Plan', price: '$15/month', label: 'Current Period', status: 'Active', active: true });
  });
  it('N/A for a plan GET /plans does not list, the raw status otherwise', () => {
    expect(historyRow(sub({ price_id: 'price_gone', status: 'past_due' }), PLANS)).toMatchObject({ price: 'N/A', status: 'past_due', active: false });
  });
});

describe('cancelConfirmation', () => {
  it('names the plan and the day access ends', () => {
    expect(cancelConfirmation(sub(), PLANS)).toEqual({
      title: 'Cancel subscription?',
      question: 'You keep access until January 1, 2026. After that the plan ends and you will not be charged again.',
      name: 'Pro Plan',
    });
  });
});

describe('subscriptionFeatures', () => {
  it("lists the subscribed plan's features, Lifetime Pro (a one-time Pro price) with its own seats", () => {
    const lifetime = plan('Lifetime Pro', 14900, { interval: null });
    expect(subscriptionFeatures(sub({ price_id: lifetime.price_id }), [...PLANS, lifetime])).toContain('Up to 10 users');
    expect(subscriptionFeatures(sub(), PLANS)).toContain('Up to 5 users');
  });
});

describe('canCancel', () => {
  it('only an active subscription not already cancelled', () => {
    expect(canCancel(null)).toBe(false);
    expect(canCancel(sub())).toBe(true);
    expect(canCancel(sub({ cancel_at_period_end: true }))).toBe(false);
    expect(canCancel(sub({ status: 'past_due' }))).toBe(false);
  });
});

describe('compareColumns', () => {
  it('puts the three tiers side by side with their prices and limits', () => {
    const [basic, pro, enterprise] = three(compareColumns(PLANS));
    expect(basic).toMatchObject({
      name: 'Basic',
      price: '$7/month',
      projects: '2',
      seats: 'Single user',
      scenarios: '2',
      api: 'No API access',
      formats: 'HTML only',
      // 'Monthly Monitoring', as the Basic card says.
      monitoring: 'Monthly scheduled re-scans',
    });
    expect(pro).toMatchObject({
      price: '$15/month',
      projects: 'Unlimited',
      seats: 'Up to 5 users',
      scenarios: '13',
      api: 'API access (1,000 requests/day)',
      monitoring: 'Daily, weekly or monthly scheduled re-scans',
    });
    expect(pro.formats).toBe('HTML, PDF, CSV, JSON and SARIF');
    expect(enterprise).toMatchObject({ scenarios: 'Unlimited', seats: 'Unlimited users', api: 'API access (custom limits)' });
  });
  it('says when a tier has no price on this server', () => {
    expect(three(compareColumns([PLANS[0]]))[2].price).toBe('Not offered');
  });
});

describe('billingErrorMessage', () => {
  it("follows the spec's lead with the server's reason, or with the status text when there is none", () => {
    expect(billingErrorMessage('Failed to create subscription', new ApiError(409, 'You already have an active subscription'))).toBe(
      'Failed to create subscription: You already have an active subscription',
    );
    expect(billingErrorMessage('Failed to update subscription', new ApiError(500, 'Failed to update subscription'))).toBe('Failed to update subscription: Internal Server Error');
    expect(billingErrorMessage('Failed to cancel subscription', new ApiError(418, 'Failed to cancel subscription'))).toBe('Failed to cancel subscription: HTTP 418');
  });
  it('has no message for anything but an API answer (the toast then uses the fallback)', () => {
    expect(billingErrorMessage('Failed to create subscription', new TypeError('Failed to fetch'))).toBeNull();
  });
});

describe('AUTH_REQUIRED_TOAST', () => {
  it('splits the spec text into title and description', () => {
    expect(AUTH_REQUIRED_TOAST).toEqual(['Authentication Required', 'Please log in to subscribe to a plan.']);
  });
});
