import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { Plan, Subscription } from '../../common/billing';
import type { Db } from '../db';
import { billingCustomers, billingPlans, subscriptions } from '../db/schema';

// The billing tables (migration 0011) as the routes and providers read and write them. Plans and subscriptions
// are small by nature: a handful of prices, a few subscriptions per user over years; their lists are bounded
// rather than paginated (the spec's GET /plans and GET /subscriptions answer one {plans} and {subscriptions}).

export type BillingProviderName = 'local' | 'stripe';
export type PlanRow = typeof billingPlans.$inferSelect;
export type SubscriptionRow = typeof subscriptions.$inferSelect;

/** The most plans GET /plans lists: more prices than any pricing page shows. */
export const MAX_PLANS = 50;
/** The most subscriptions GET /subscriptions lists, newest first: years of changes of one account. */
export const MAX_SUBSCRIPTIONS = 100;

/** A plan as GET /plans answers it. */
export function toPlan(row: PlanRow): Plan {
  return {
    price_id: row.priceId,
    product_id: row.productId,
    product_name: row.productName,
    product_description: row.productDescription,
    unit_amount: row.unitAmount,
    currency: row.currency,
    interval: (row.interval as Plan['interval']) ?? null,
  };
}

/** A subscription as the API answers it: the period's end in unix seconds. */
export function toSubscription(row: SubscriptionRow): Subscription {
  return {
    id: row.id,
    status: row.status,
    current_period_end: Math.floor(row.currentPeriodEnd.getTime() / 1000),
    price_id: row.priceId,
    cancel_at_period_end: row.cancelAtPeriodEnd,
    pending_price_id: row.pendingPriceId,
    provider: row.provider,
  };
}

export class BillingStore {
  constructor(readonly db: Db) {}

  /** The active plans of a provider, in their pricing order. */
  async plans(provider: BillingProviderName): Promise<PlanRow[]> {
    return this.db
      .select()
      .from(billingPlans)
      .where(and(eq(billingPlans.provider, provider), eq(billingPlans.active, true)))
      .orderBy(asc(billingPlans.position), asc(billingPlans.unitAmount), asc(billingPlans.priceId))
      .limit(MAX_PLANS);
  }

  /** One plan of the provider by its price, listed or not (a subscription may stay on a retired price). */
  async plan(provider: BillingProviderName, priceId: string): Promise<PlanRow | undefined> {
    const [row] = await this.db
      .select()
      .from(billingPlans)
      .where(and(eq(billingPlans.provider, provider), eq(billingPlans.priceId, priceId)))
      .limit(1);
    return row;
  }

  /** The user's subscriptions, newest first. */
  async subscriptionsOf(userId: string): Promise<SubscriptionRow[]> {
    return this.db.select().from(subscriptions).where(eq(subscriptions.userId, userId)).orderBy(desc(subscriptions.createdAt), desc(subscriptions.id)).limit(MAX_SUBSCRIPTIONS);
  }

  /** One subscription of the user; undefined for another user's id (the route answers 404). */
  async subscriptionOf(userId: string, id: string): Promise<SubscriptionRow | undefined> {
    const [row] = await this.db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.userId, userId), eq(subscriptions.id, id)))
      .limit(1);
    return row;
  }

  /** The user's active subscriptions (one, normally), oldest first: the first is the current one. */
  async activeOf(userId: string, db: Db = this.db): Promise<SubscriptionRow[]> {
    return db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.userId, userId), eq(subscriptions.status, 'active')))
      .orderBy(asc(subscriptions.createdAt));
  }

  /** Writes a subscription as the provider has it (Stripe's webhooks and answers; the local provider's changes). */
  async upsert(row: typeof subscriptions.$inferInsert, db: Db = this.db): Promise<SubscriptionRow> {
    const [saved] = await db
      .insert(subscriptions)
      .values(row)
      .onConflictDoUpdate({
        target: subscriptions.id,
        set: {
          status: row.status,
          priceId: row.priceId,
          currentPeriodStart: row.currentPeriodStart,
          currentPeriodEnd: row.currentPeriodEnd,
          cancelAtPeriodEnd: row.cancelAtPeriodEnd ?? false,
          pendingPriceId: row.pendingPriceId ?? null,
          updatedAt: sql`now()`,
        },
      })
      .returning();
    return saved!;
  }

  /** The provider's customer id of a user, if one was made. */
  async customerOf(userId: string, provider: BillingProviderName): Promise<string | undefined> {
    const [row] = await this.db
      .select({ customerId: billingCustomers.customerId })
      .from(billingCustomers)
      .where(and(eq(billingCustomers.userId, userId), eq(billingCustomers.provider, provider)))
      .limit(1);
    return row?.customerId;
  }

  /** The user of a provider's customer id (Stripe's webhooks name customers, not users). */
  async userOfCustomer(provider: BillingProviderName, customerId: string): Promise<string | undefined> {
    const [row] = await this.db
      .select({ userId: billingCustomers.userId })
      .from(billingCustomers)
      .where(and(eq(billingCustomers.provider, provider), eq(billingCustomers.customerId, customerId)))
      .limit(1);
    return row?.userId;
  }

  /** Records the user's customer; when another request recorded one first, that one is kept and answered. */
  async saveCustomer(userId: string, provider: BillingProviderName, customerId: string): Promise<string> {
    await this.db.insert(billingCustomers).values({ userId, provider, customerId }).onConflictDoNothing();
    return (await this.customerOf(userId, provider)) ?? customerId;
  }
}
