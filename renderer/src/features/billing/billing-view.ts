import {
  TIER_FEATURES,
  TIER_NAMES,
  TIERS,
  formatBillingDate,
  formatPrice,
  planAction,
  planDescription,
  planPeriod,
  tierOfProductName,
  type Plan,
  type PlanAction,
  type Subscription,
  type Tier,
} from '@common/billing';
import { PLAN_LIMITS, apiClaim, formatsText, limitsOfPrice, monitoringClaim, planClaims, seatsClaim, type PlanLimits } from '@common/plans';
import { ApiError } from '../../api/http';
import { texts } from './texts';

// The screen's logic as pure functions of GET /plans and GET /subscriptions, so each rule of spec sections 3 and
// 4 is tested without a browser; the components only lay these views out.

/** Billing UI state (spec section 4): the tab, the sub-view of My Subscription and the plans filter. */
export type BillingTab = 'dashboard' | 'pricing';
export type BillingSubView = 'current' | 'plans';
export const PLAN_FILTERS = ['all-plans', 'upgrades', 'downgrades'] as const;
export type PlanFilter = (typeof PLAN_FILTERS)[number];

/** Plan card (spec section 3): id is the product id lowercased; Pro is the popular one. */
export interface PlanCard {
  id: string;
  tier: Tier;
  name: string;
  price: string;
  period: string;
  description: string;
  features: readonly string[];
  priceId: string;
  action: PlanAction;
  popular: boolean;
}

export function planCards(plans: readonly Plan[], current: Subscription | null): PlanCard[] {
  return plans.map((plan) => {
    const tier = tierOfProductName(plan.product_name);
    return {
      id: plan.product_id.toLowerCase(),
      tier,
      name: plan.product_name,
      price: formatPrice(plan.unit_amount, plan.currency),
      period: planPeriod(plan),
      description: planDescription(plan),
      features: tierFeatures(tier, limitsOfPrice(tier, !plan.interval)),
      priceId: plan.price_id,
      action: planAction(plan, current, plans),
      popular: tier === 'pro',
    };
  });
}

/**
 * A card's features: the spec's tier features (section 3, word for word), then what the plan's limits promise (the
 * numbers the server enforces: seats, scenarios, every report format, schedules, API), so no card says less or more.
 * The projects line is left out: every tier's spec features already name its projects.
 */
export function tierFeatures(tier: Tier, limits: PlanLimits = PLAN_LIMITS[tier]): string[] {
  // A card lists what the plan has (each line with a check mark): what it lacks is on Compare Plans ('No API access').
  const extra = planClaims(limits)
    .filter((claim) => claim.key !== 'projects' && claim.included)
    .map((claim) => claim.label);
  return [...TIER_FEATURES[tier], ...extra];
}

/** Upgrades shows the upgrade cards, Downgrades the downgrade cards, All Plans every card. */
export function filterCards(cards: readonly PlanCard[], filter: PlanFilter): PlanCard[] {
  if (filter === 'upgrades') return cards.filter((card) => card.action === 'upgrade');
  if (filter === 'downgrades') return cards.filter((card) => card.action === 'downgrade');
  return [...cards];
}

/** The empty filtered list's text: highest tier under Upgrades, otherwise lowest tier. */
export function emptyFilterText(filter: PlanFilter): string {
  return filter === 'upgrades' ? texts.highestTier : texts.lowestTier;
}

/** The button of a plan card: disabled 'Current Plan', 'Upgrade' or 'Downgrade'; 'Processing...' while busy. */
export function planButtonLabel(action: PlanAction, busy: boolean): string {
  if (busy) return texts.processing;
  if (action === 'current') return texts.currentPlan;
  return action === 'upgrade' ? texts.upgrade : texts.downgrade;
}

/** The plan a subscription is on, when GET /plans lists it. */
export function planOf(subscription: Subscription, plans: readonly Plan[]): Plan | null {
  return plans.find((plan) => plan.price_id === subscription.price_id) ?? null;
}

/** The features a subscription's plan promises: its tier's, a one-time Pro price (Lifetime Pro) with its own seats. */
export function subscriptionFeatures(subscription: Subscription, plans: readonly Plan[]): string[] {
  const tier = tierOf(subscription, plans);
  const plan = planOf(subscription, plans);
  return tierFeatures(tier, limitsOfPrice(tier, plan !== null && !plan.interval));
}

/** The tier of a subscription: its plan's product name; a plan GET /plans does not list counts as Enterprise. */
export function tierOf(subscription: Subscription, plans: readonly Plan[]): Tier {
  const plan = planOf(subscription, plans);
  return plan ? tierOfProductName(plan.product_name) : 'enterprise';
}

/** The three columns of the summary card. */
export interface SummaryView {
  planTitle: string;
  /** 'Renews on {date}' or 'Ends on {date}'; null without a subscription. */
  periodLine: string | null;
  /** A downgrade due at period end: 'Changes to Basic on {date}'. */
  scheduledLine: string | null;
  /** The call to choose a plan, without a subscription. */
  notice: string | null;
  statusText: string;
  cycleText: string | null;
}

/** Column 2: 'Active subscription', 'Cancelled subscription' (canceled) or 'Status: {status}'. */
export function statusText(status: string): string {
  if (status === 'active') return texts.activeSubscription;
  if (status === 'canceled') return texts.cancelledSubscription;
  return texts.rawStatus(status);
}

/**
 * A subscription renews when it is active and not cancelled at period end; otherwise its period end is when access
 * stops. (An active subscription cancelled at period end is still 'active' in Stripe's terms, but nothing will be
 * billed next, so it says 'Ends on' and 'Access until'.)
 */
export function renews(subscription: Subscription): boolean {
  return subscription.status === 'active' && !subscription.cancel_at_period_end;
}

export function summaryView(current: Subscription | null, plans: readonly Plan[]): SummaryView {
  if (!current) {
    return { planTitle: texts.noSubscription, periodLine: null, scheduledLine: null, notice: texts.chooseNotice, statusText: texts.noDetails, cycleText: null };
  }
  const date = formatBillingDate(current.current_period_end);
  const pending = current.pending_price_id ? plans.find((plan) => plan.price_id === current.pending_price_id) : undefined;
  const willRenew = renews(current);
  return {
    planTitle: `${TIER_NAMES[tierOf(current, plans)]} Plan`,
    periodLine: `${willRenew ? texts.renewsOn : texts.endsOn} ${date}`,
    scheduledLine: pending && willRenew ? texts.changesTo(TIER_NAMES[tierOfProductName(pending.product_name)], date) : null,
    notice: null,
    // Cancelled at period end, Stripe's status stays 'active' until that day: the column says it ends, and when.
    statusText: current.status === 'active' && current.cancel_at_period_end ? texts.cancelledEnds(date) : statusText(current.status),
    cycleText: willRenew ? texts.nextBilling(date) : texts.accessUntil(date),
  };
}

/** The question Cancel Subscription asks before it cancels: the plan, and the day its access ends. */
export interface CancelConfirmation {
  title: string;
  question: string;
  name: string;
}

export function cancelConfirmation(current: Subscription, plans: readonly Plan[]): CancelConfirmation {
  return {
    title: texts.cancelConfirmTitle,
    question: texts.cancelConfirmQuestion(formatBillingDate(current.current_period_end)),
    name: `${TIER_NAMES[tierOf(current, plans)]} Plan`,
  };
}

/** The Billing History row: tier plan name, price or N/A, 'Current Period', 'Active' (green) or the raw status. */
export interface HistoryRow {
  name: string;
  price: string;
  label: string;
  status: string;
  active: boolean;
}

export function historyRow(current: Subscription, plans: readonly Plan[]): HistoryRow {
  const plan = planOf(current, plans);
  return {
    name: `${TIER_NAMES[tierOf(current, plans)]} Plan`,
    price: plan ? `${formatPrice(plan.unit_amount, plan.currency)}${planPeriod(plan)}` : texts.notAvailable,
    label: texts.currentPeriod,
    status: current.status === 'active' ? texts.active : current.status,
    active: current.status === 'active',
  };
}

/** Cancel Subscription is offered only for an active subscription not already cancelled at period end. */
export function canCancel(current: Subscription | null): current is Subscription {
  return current !== null && current.status === 'active' && !current.cancel_at_period_end;
}

/** One tier's column of Compare Plans: its price from GET /plans and its limits from common/plan-limits.ts. */
export interface CompareColumn {
  tier: Tier;
  name: string;
  price: string;
  projects: string;
  scenarios: string;
  seats: string;
  api: string;
  formats: string;
  monitoring: string;
  features: readonly string[];
}

const countText = (limit: number | null) => (limit === null ? texts.unlimited : String(limit));

export function compareColumns(plans: readonly Plan[]): CompareColumn[] {
  return TIERS.map((tier) => {
    const plan = plans.find((candidate) => tierOfProductName(candidate.product_name) === tier);
    const limits = PLAN_LIMITS[tier];
    return {
      tier,
      name: TIER_NAMES[tier],
      price: plan ? `${formatPrice(plan.unit_amount, plan.currency)}${planPeriod(plan)}` : texts.priceNotOffered,
      projects: countText(limits.projects),
      scenarios: countText(limits.scenarios),
      seats: seatsClaim(limits),
      api: apiClaim(limits),
      formats: formatsText(limits.reportFormats),
      monitoring: monitoringClaim(limits),
      features: TIER_FEATURES[tier],
    };
  });
}

const STATUS_TEXTS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/**
 * A failed billing call's message (spec section 8): 'Failed to … subscription' followed by the status text, or by
 * the server's own reason when it gave one (which says more). Anything but an API answer has no message here, so
 * the toast falls back to the spec's generic text.
 */
export function billingErrorMessage(lead: string, error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  const reason = error.message && error.message !== lead ? error.message : (STATUS_TEXTS[error.status] ?? `HTTP ${error.status}`);
  return `${lead}: ${reason}`;
}
