import type { Logger } from 'pino';
import { BILLING_ERRORS, TIER_NAMES, TIER_RANK, tierOfProductName, type Plan, type Subscription } from '../../common/billing';
import type { EventService } from '../events/service';
import type { WebhookEmitter } from '../webhooks/delivery';
import type { PlanGate } from './plan-gate';
import { type BillingProvider, type ChangedSubscription, type SubscriptionChange } from './provider';
import { toPlan, toSubscription, type BillingStore, type PlanRow, type SubscriptionRow } from './store';
import { HttpError } from '../http-errors';

export interface BillingServiceDeps {
  store: BillingStore;
  provider: BillingProvider;
  /** Forgets a user's cached plan after each change, so limits follow at once. */
  planGate: Pick<PlanGate, 'forget'>;
  /** The Events page's rows; absent in tests of billing alone. */
  events?: Pick<EventService, 'record'>;
  /** The user's `subscription.updated` webhooks. */
  webhooks?: WebhookEmitter;
  logger?: Pick<Logger, 'warn'>;
}

/** The Events page's description of each change. */
const CHANGE_TEXTS: Record<SubscriptionChange, (plan: string) => string> = {
  created: (plan) => `Subscribed to the ${plan} plan`,
  upgraded: (plan) => `Upgraded to the ${plan} plan`,
  downgrade_scheduled: (plan) => `Downgrade to the ${plan} plan scheduled for the end of the billing period`,
  cancelled: (plan) => `${plan} subscription cancelled: access until the end of the billing period`,
  renewed: (plan) => `${plan} subscription renewed for a new billing period`,
  downgraded: (plan) => `Downgraded to the ${plan} plan`,
  ended: (plan) => `${plan} subscription ended`,
  updated: (plan) => `${plan} subscription updated`,
};

/** Where billing events point on the Events page. */
const BILLING_PAGE = '/dashboard/billing';

/**
 * Plans and subscriptions (spec sections 4, 7 and 8): checks each request, lets the configured provider make the
 * change, then announces it: the plan gate forgets the user's plan, the Events page gets a row, and the user's
 * webhooks get `subscription.updated`.
 */
export class BillingService {
  constructor(private readonly deps: BillingServiceDeps) {}

  get provider(): BillingProvider['name'] {
    return this.deps.provider.name;
  }

  async plans(): Promise<Plan[]> {
    // With Stripe, the copy of its prices is read again when old; when Stripe is away, the copy is listed.
    await this.deps.provider.refreshPlans().catch((error: unknown) => this.deps.logger?.warn({ err: error }, 'could not read the plans of the billing provider'));
    return (await this.deps.store.plans(this.deps.provider.name)).map(toPlan);
  }

  async subscriptions(userId: string): Promise<Subscription[]> {
    return (await this.deps.store.subscriptionsOf(userId)).map(toSubscription);
  }

  /** POST /subscription: a first subscription; a second active one is refused (change the plan instead). */
  async create(userId: string, priceId: string): Promise<{ subscription: SubscriptionRow; hostedInvoiceUrl: string | null }> {
    const plan = await this.listedPlan(priceId);
    if ((await this.deps.store.activeOf(userId)).length) throw new HttpError(409, BILLING_ERRORS.alreadySubscribed);
    const created = await this.deps.provider.create(userId, plan);
    await this.announce({ subscription: created.subscription, change: 'created' });
    return created;
  }

  /** POST /subscription/{id}/upgrade: a higher tier at once; a lower (or equal) one at the end of the period. */
  async change(userId: string, id: string, newPriceId: string): Promise<{ subscription: SubscriptionRow; change: 'upgraded' | 'downgrade_scheduled' }> {
    const current = await this.activeSubscription(userId, id);
    const to = await this.listedPlan(newPriceId);
    if (to.priceId === current.priceId) throw new HttpError(400, BILLING_ERRORS.samePrice);
    const from = await this.deps.store.plan(current.provider, current.priceId);
    // A price no longer listed counts as the highest tier (as the plan gate reads it): any other plan is lower.
    const fromRank = from ? TIER_RANK[tierOfProductName(from.productName)] : TIER_RANK.enterprise;
    const upgrade = TIER_RANK[tierOfProductName(to.productName)] > fromRank;
    const subscription = upgrade ? await this.deps.provider.upgrade(current, to) : await this.deps.provider.scheduleDowngrade(current, to);
    const change = upgrade ? ('upgraded' as const) : ('downgrade_scheduled' as const);
    await this.announce({ subscription, change });
    return { subscription, change };
  }

  /** POST /subscription/{id}/cancel: ends at the period's end; active with access until then. */
  async cancel(userId: string, id: string): Promise<SubscriptionRow> {
    const current = await this.activeSubscription(userId, id);
    if (current.cancelAtPeriodEnd) throw new HttpError(409, BILLING_ERRORS.alreadyCancelled);
    const subscription = await this.deps.provider.cancel(current);
    await this.announce({ subscription, change: 'cancelled' });
    return subscription;
  }

  /** Cancels every active subscription of the user at once (account deletion); answers how many ended. */
  async closeAccount(userId: string): Promise<number> {
    const ended = await this.deps.provider.endNow(await this.deps.store.activeOf(userId));
    this.deps.planGate.forget(userId);
    return ended.length;
  }

  /** Ends the periods that are over (the local provider; Stripe ends its own and tells through its webhooks). */
  async rollover(now?: Date): Promise<ChangedSubscription[]> {
    if (!this.deps.provider.rollover) return [];
    const changed = await this.deps.provider.rollover(now ?? new Date());
    for (const item of changed) await this.announce(item);
    return changed;
  }

  /** POST /stripe/webhook: a signed event of the provider; the subscription it changed is announced like any change. */
  async providerWebhook(payload: Buffer, signature: string | undefined): Promise<void> {
    if (!this.deps.provider.applyWebhook) throw new HttpError(404, 'Stripe billing is not configured on this server');
    const changed = await this.deps.provider.applyWebhook(payload, signature);
    if (changed) await this.announce(changed);
  }

  /** Tells everyone who must know that a subscription changed; an announcement that fails is logged, never thrown. */
  async announce({ subscription, change }: ChangedSubscription): Promise<void> {
    this.deps.planGate.forget(subscription.userId);
    const plan = await this.deps.store.plan(subscription.provider, subscription.priceId);
    // The event names the plan the change is about: the one to come for a scheduled downgrade.
    const named = change === 'downgrade_scheduled' && subscription.pendingPriceId ? await this.deps.store.plan(subscription.provider, subscription.pendingPriceId) : plan;
    const planName = named ? TIER_NAMES[tierOfProductName(named.productName)] : subscription.priceId;
    try {
      // A plan is its payer's: the event goes to their personal workspace (whose id is theirs).
      await this.deps.events?.record([
        {
          workspaceId: subscription.userId,
          userId: subscription.userId,
          projectId: null,
          kind: 'other',
          url: BILLING_PAGE,
          extra: { description: CHANGE_TEXTS[change](planName), subscription_id: subscription.id },
        },
      ]);
    } catch (error) {
      this.deps.logger?.warn({ err: error, subscription: subscription.id }, 'could not record the subscription event');
    }
    await this.deps.webhooks?.emit(subscription.userId, 'subscription.updated', subscriptionUpdatedData(subscription, change, plan));
  }

  private async listedPlan(priceId: string): Promise<PlanRow> {
    const plan = await this.deps.store.plan(this.deps.provider.name, priceId);
    if (!plan || !plan.active) throw new HttpError(400, BILLING_ERRORS.unknownPrice);
    return plan;
  }

  private async activeSubscription(userId: string, id: string): Promise<SubscriptionRow> {
    const row = await this.deps.store.subscriptionOf(userId, id);
    if (!row) throw new HttpError(404, BILLING_ERRORS.notFound);
    if (row.status !== 'active') throw new HttpError(409, BILLING_ERRORS.notActive);
    return row;
  }
}

/** The data of `subscription.updated`: ids, the plan and the period, never payment details. */
export function subscriptionUpdatedData(subscription: SubscriptionRow, change: SubscriptionChange, plan: PlanRow | undefined): Record<string, unknown> {
  return {
    change,
    subscription_id: subscription.id,
    status: subscription.status,
    price_id: subscription.priceId,
    pending_price_id: subscription.pendingPriceId,
    plan: plan
      ? { product_name: plan.productName, tier: tierOfProductName(plan.productName), unit_amount: plan.unitAmount, currency: plan.currency, interval: plan.interval }
      : null,
    current_period_end: subscription.currentPeriodEnd.toISOString(),
    cancel_at_period_end: subscription.cancelAtPeriodEnd,
    provider: subscription.provider,
  };
}
