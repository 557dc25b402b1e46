import type { BillingProviderName, PlanRow, SubscriptionRow } from './store';

/** What changed in a subscription, as its event and its `subscription.updated` webhook say. */
export type SubscriptionChange = 'created' | 'upgraded' | 'downgrade_scheduled' | 'cancelled' | 'renewed' | 'downgraded' | 'ended' | 'updated';

/** A subscription after a change, and which change it was. */
export interface ChangedSubscription {
  subscription: SubscriptionRow;
  change: SubscriptionChange;
}

/**
 * Who bills: the local provider (plans in the database, periods kept by this server, no payment collected) or
 * Stripe. Each method makes the change at the provider and writes the subscription row as the provider has it;
 * the service (service.ts) checks the request before and announces the change after.
 */
export interface BillingProvider {
  readonly name: BillingProviderName;
  /** Brings the copy of the provider's plans up to date (Stripe's prices); the local plans need nothing. */
  refreshPlans(): Promise<void>;
  /** Starts a subscription to `plan`; with Stripe, the invoice to pay (its hosted page) comes with it. */
  create(userId: string, plan: PlanRow): Promise<{ subscription: SubscriptionRow; hostedInvoiceUrl: string | null }>;
  /** Moves to a higher tier at once (prorated), keeping the period. */
  upgrade(subscription: SubscriptionRow, to: PlanRow): Promise<SubscriptionRow>;
  /** Schedules a lower (or equal) tier for the end of the period: `pending_price_id` until then. */
  scheduleDowngrade(subscription: SubscriptionRow, to: PlanRow): Promise<SubscriptionRow>;
  /** Cancels at the end of the period: the status stays active and access lasts until then. */
  cancel(subscription: SubscriptionRow): Promise<SubscriptionRow>;
  /** Ends the given subscriptions of a user at once (account deletion). */
  endNow(subscriptions: SubscriptionRow[]): Promise<SubscriptionRow[]>;
  /** Ends the periods that are over (the local provider's own clock; Stripe does this itself). */
  rollover?(now: Date): Promise<ChangedSubscription[]>;
  /** A webhook of the provider (Stripe's, signed): the subscription it changed, or null when it changes none. */
  applyWebhook?(payload: Buffer, signature: string | undefined): Promise<ChangedSubscription | null>;
}
