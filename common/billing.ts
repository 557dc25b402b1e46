import { z } from 'zod';

/**
 * Plans and subscriptions (spec sections 3, 4, 7, 8 and 9): the shapes of GET /plans, GET /subscriptions,
 * POST /subscription, POST /subscription/{id}/upgrade and POST /subscription/{id}/cancel, the rules that turn a
 * product name into a tier and a plan into an action, and every billing text of the screen.
 */

import { TIER_NAMES, TIER_RANK, type Tier } from './plans';

export { TIERS, TIER_NAMES, TIER_RANK, type Tier } from './plans';

/** The tier of a product: its name contains Basic, Pro or Enterprise; any other name counts as Enterprise. */
export function tierOfProductName(name: string): Tier {
  if (/basic/i.test(name)) return 'basic';
  if (/enterprise/i.test(name)) return 'enterprise';
  if (/pro/i.test(name)) return 'pro';
  return 'enterprise';
}

/** Plan (server): GET /plans, no auth. unit_amount in minor units; no interval means a one-time (lifetime) price. */
export const planSchema = z.object({
  price_id: z.string(),
  product_id: z.string(),
  product_name: z.string(),
  product_description: z.string().nullable().optional(),
  unit_amount: z.number().int().nonnegative(),
  currency: z.string(),
  interval: z.enum(['day', 'week', 'month', 'year']).nullable().optional(),
});
export type Plan = z.infer<typeof planSchema>;
/** GET /plans: the spec's {plans}, and who bills ('local': no payment is collected, which the screen says). */
export const plansResponseSchema = z.object({ plans: z.array(planSchema), provider: z.enum(['local', 'stripe']) });

/** Subscription: the spec's fields (current_period_end in unix seconds, price_id of the first item) and what is scheduled. */
export const subscriptionSchema = z.object({
  id: z.string(),
  status: z.string(),
  current_period_end: z.number().int(),
  price_id: z.string(),
  /** Cancelled at the end of the period (access until then). */
  cancel_at_period_end: z.boolean(),
  /** A downgrade that takes effect at the end of the period; null when none is scheduled. */
  pending_price_id: z.string().nullable(),
  /** 'local' (no payment collected) or 'stripe'. */
  provider: z.enum(['local', 'stripe']),
});
export type Subscription = z.infer<typeof subscriptionSchema>;
export const subscriptionsResponseSchema = z.object({ subscriptions: z.array(subscriptionSchema) });

const priceId = z.string({ error: 'price_id is required' }).trim().min(1, 'price_id is required').max(200, 'price_id is at most 200 characters');
/** POST /subscription */
export const createSubscriptionSchema = z.strictObject({ price_id: priceId });
/** POST /subscription/{id}/upgrade (upgrades and downgrades) */
export const changeSubscriptionSchema = z.strictObject({
  new_price_id: z.string({ error: 'new_price_id is required' }).trim().min(1, 'new_price_id is required').max(200, 'new_price_id is at most 200 characters'),
});
/** POST /subscription/{id}/cancel: an empty JSON object. */
export const cancelSubscriptionSchema = z.strictObject({});

/** POST /subscription answer: with Stripe, the invoice to pay (the app opens it); locally none. */
export const createdSubscriptionSchema = z.object({
  subscription: subscriptionSchema.extend({
    latest_invoice: z.object({ hosted_invoice_url: z.string().nullable() }).nullable(),
  }),
});
/** POST /subscription/{id}/upgrade and /cancel answers. */
export const subscriptionResponseSchema = z.object({ subscription: subscriptionSchema });

/** The first subscription with status active is the current one. */
export function currentSubscription(subscriptions: readonly Subscription[]): Subscription | null {
  return subscriptions.find((subscription) => subscription.status === 'active') ?? null;
}

export type PlanAction = 'current' | 'upgrade' | 'downgrade';

/** Plan action: with no subscription or an unknown plan, upgrade; the same price is current; else compare ranks. */
export function planAction(plan: Plan, current: Subscription | null, plans: readonly Plan[]): PlanAction {
  if (!current) return 'upgrade';
  if (current.price_id === plan.price_id) return 'current';
  const currentPlan = plans.find((candidate) => candidate.price_id === current.price_id);
  if (!currentPlan) return 'upgrade';
  return TIER_RANK[tierOfProductName(plan.product_name)] > TIER_RANK[tierOfProductName(currentPlan.product_name)] ? 'upgrade' : 'downgrade';
}

/** Tier features (spec section 3). */
export const TIER_FEATURES: Record<Tier, readonly string[]> = {
  basic: ['2 Projects', 'Basic Security Reports (HTML)', 'Common Vulnerability Detection', 'Monthly Monitoring'],
  pro: ['Unlimited Projects', 'Full Reports (PDF, CSV, JSON)', 'Advanced Vulnerability Detection', 'Continuous Monitoring'],
  enterprise: ['Unlimited Projects', 'Custom Reports', 'Premium Vulnerability Detection', 'Real-time Monitoring', 'Dedicated Support'],
};

/** The description of a plan card: the product's own, else 'Lifetime access' or 'Essential security for {tier} projects'. */
export function planDescription(plan: Plan): string {
  if (plan.product_description) return plan.product_description;
  if (!plan.interval) return 'Lifetime access';
  return `Essential security for ${TIER_NAMES[tierOfProductName(plan.product_name)].toLowerCase()} projects`;
}

/** Prices in en-US currency in the plan's currency, with no decimals, from minor units divided by 100. */
export function formatPrice(unitAmount: number, currency: string): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase(), minimumFractionDigits: 0, maximumFractionDigits: 0 }).format(unitAmount / 100);
}

/** Billing dates: en-US long form from unix seconds. */
export function formatBillingDate(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
}

/** The period shown after a price: '/month', '/year', or '/lifetime' without an interval. */
export function planPeriod(plan: Plan): string {
  return plan.interval ? `/${plan.interval}` : '/lifetime';
}

/** Error and success texts of section 8 (Billing), word for word. */
export const BILLING_TEXTS = {
  fetchSubscriptionsFailed: 'Failed to fetch subscriptions',
  fetchPlansFailed: 'Failed to fetch plans',
  createFailed: 'Failed to create subscription',
  updateFailed: 'Failed to update subscription',
  cancelFailed: 'Failed to cancel subscription',
  errorTitle: 'Error',
  requestFallback: 'An error occurred while processing your request.',
  cancelFallback: 'An error occurred while cancelling your subscription.',
  authRequired: 'Authentication Required: Please log in to subscribe to a plan.',
  createdTitle: 'Subscription Created',
  createdBody: "You've successfully subscribed to the plan.",
  updatedTitle: 'Subscription Updated',
  upgradedBody: "You've successfully upgraded to the new plan.",
  downgradedBody: "You've successfully downgraded to the new plan.",
  cancelledTitle: 'Subscription Cancelled',
  cancelledBody: 'Your subscription has been cancelled. You will still have access until the end of your billing period.',
} as const;

/** Server answers (the `detail` of 4xx) of the billing routes. */
export const BILLING_ERRORS = {
  unknownPrice: 'price_id does not name a plan of GET /plans',
  alreadySubscribed: 'You already have an active subscription: change its plan with POST /subscription/{id}/upgrade',
  samePrice: 'The subscription is already on this plan',
  notActive: 'Only an active subscription can be changed or cancelled',
  alreadyCancelled: 'The subscription is already cancelled at the end of its period',
  notFound: 'Subscription not found',
  webhookSignature: 'Stripe-Signature does not match this webhook endpoint',
} as const;
