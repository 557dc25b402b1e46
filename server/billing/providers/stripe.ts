import { and, eq, notInArray, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import Stripe from 'stripe';
import { BILLING_ERRORS } from '../../../common/billing';
import { billingPlans, type subscriptions } from '../../db/schema';
import { transaction } from '../../db/transaction';
import { type BillingProvider, type ChangedSubscription, type SubscriptionChange } from '../provider';
import type { BillingStore, PlanRow, SubscriptionRow } from '../store';
import { HttpError } from '../../http-errors';

// Stripe as the billing provider, through the official client: one customer per user (billing_customers), the
// prices copied into billing_plans, subscriptions created unpaid with the invoice's hosted page to pay it,
// upgrades prorated at once, downgrades as a subscription schedule of two phases (Stripe's recommended way to
// change a price at the period's end), cancellation at the period's end. Stripe's webhooks keep the rows up to date.

export interface StripeProviderOptions {
  store: BillingStore;
  secretKey: string;
  /** The signing secret (whsec_…) of POST /stripe/webhook; null: webhooks are refused. */
  webhookSecret: string | null;
  /** Another API origin (the stand-in in tests); Stripe's own when null. */
  apiUrl: string | null;
  logger: Pick<Logger, 'warn'>;
  /** How long the copy of the prices is used before GET /plans reads them again. */
  plansTtlMs?: number;
  now?: () => number;
}

/** The most prices copied: far more than a pricing page shows (GET /plans lists at most 50). */
const MAX_PRICES = 100;
const PLANS_TTL_MS = 5 * 60_000;

/** The official client, pointed at `apiUrl` when given (host, port and protocol are the client's own options). */
export function stripeClient(secretKey: string, apiUrl: string | null): Stripe {
  if (!apiUrl) return new Stripe(secretKey, { maxNetworkRetries: 2, timeout: 20_000 });
  const url = new URL(apiUrl);
  return new Stripe(secretKey, {
    host: url.hostname,
    port: url.port || (url.protocol === 'https:' ? 443 : 80),
    protocol: url.protocol === 'https:' ? 'https' : 'http',
    maxNetworkRetries: 0,
    timeout: 20_000,
  });
}

const unixDate = (seconds: number) => new Date(seconds * 1000);
const idOf = (value: string | { id: string } | null | undefined) => (value == null ? null : typeof value === 'string' ? value : value.id);

/** A subscription as Stripe has it, as a row: the first item's price and period (where API versions since 2025 keep it). */
export function rowFromStripe(subscription: Stripe.Subscription, userId: string, pendingPriceId: string | null): typeof subscriptions.$inferInsert {
  const item = subscription.items.data[0];
  const legacy = subscription as unknown as { current_period_start?: number; current_period_end?: number };
  const start = item?.current_period_start ?? legacy.current_period_start ?? subscription.start_date;
  const end = item?.current_period_end ?? legacy.current_period_end ?? subscription.start_date;
  const priceId = item?.price.id ?? '';
  return {
    id: subscription.id,
    userId,
    provider: 'stripe',
    status: subscription.status,
    priceId,
    currentPeriodStart: unixDate(start),
    currentPeriodEnd: unixDate(end),
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    // A scheduled downgrade lasts while its schedule does, and is done once the price is the scheduled one.
    pendingPriceId: subscription.schedule && pendingPriceId !== priceId ? pendingPriceId : null,
    createdAt: unixDate(subscription.created),
  };
}

export class StripeProvider implements BillingProvider {
  readonly name = 'stripe' as const;
  readonly stripe: Stripe;
  private plansReadAt = Number.NEGATIVE_INFINITY;
  private refreshing: Promise<void> | undefined;
  private readonly now: () => number;

  constructor(private readonly options: StripeProviderOptions) {
    this.stripe = stripeClient(options.secretKey, options.apiUrl);
    this.now = options.now ?? Date.now;
  }

  /** Copies Stripe's active prices (with their products) into billing_plans; prices gone from Stripe are retired. */
  async refreshPlans(): Promise<void> {
    if (this.now() - this.plansReadAt < (this.options.plansTtlMs ?? PLANS_TTL_MS)) return;
    this.refreshing ??= this.copyPrices().finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  private async copyPrices(): Promise<void> {
    const prices = await this.stripe.prices.list({ active: true, expand: ['data.product'], limit: MAX_PRICES });
    const rows = prices.data.flatMap((price) => planFromPrice(price)).sort((a, b) => a.unitAmount - b.unitAmount);
    await transaction(this.options.store.db, async (tx) => {
      for (const [position, row] of rows.entries()) {
        const values = { ...row, position };
        await tx.insert(billingPlans).values(values).onConflictDoUpdate({ target: billingPlans.priceId, set: values });
      }
      const listed = rows.map((row) => row.priceId);
      await tx
        .update(billingPlans)
        .set({ active: false })
        .where(and(eq(billingPlans.provider, 'stripe'), listed.length ? notInArray(billingPlans.priceId, listed) : sql`true`));
    });
    this.plansReadAt = this.now();
  }

  /** The user's Stripe customer, made on the first subscription. */
  private async customerOf(userId: string): Promise<string> {
    const known = await this.options.store.customerOf(userId, 'stripe');
    if (known) return known;
    const customer = await this.call(() => this.stripe.customers.create({ metadata: { vibeeval_user_id: userId } }, { idempotencyKey: `customer-${userId}` }));
    return this.options.store.saveCustomer(userId, 'stripe', customer.id);
  }

  async create(userId: string, plan: PlanRow): Promise<{ subscription: SubscriptionRow; hostedInvoiceUrl: string | null }> {
    const customer = await this.customerOf(userId);
    // A checkout left unpaid (another plan chosen, or the invoice page closed) is replaced, not kept open beside it.
    const unpaid = (await this.options.store.subscriptionsOf(userId)).filter((row) => row.provider === 'stripe' && row.status === 'incomplete');
    await this.endNow(unpaid);
    const created = await this.call(() =>
      this.stripe.subscriptions.create({
        customer,
        items: [{ price: plan.priceId }],
        // Unpaid until its first invoice is paid on Stripe's hosted page, which the app opens.
        payment_behavior: 'default_incomplete',
        payment_settings: { save_default_payment_method: 'on_subscription' },
        expand: ['latest_invoice'],
        metadata: { vibeeval_user_id: userId },
      }),
    );
    const invoice = created.latest_invoice && typeof created.latest_invoice === 'object' ? created.latest_invoice : null;
    const subscription = await this.options.store.upsert(rowFromStripe(created, userId, null));
    return { subscription, hostedInvoiceUrl: invoice?.hosted_invoice_url ?? null };
  }

  async upgrade(row: SubscriptionRow, to: PlanRow): Promise<SubscriptionRow> {
    const current = await this.releaseSchedule(row.id);
    const item = current.items.data[0];
    if (!item) throw new HttpError(409, BILLING_ERRORS.notActive);
    const updated = await this.call(() =>
      this.stripe.subscriptions.update(row.id, {
        items: [{ id: item.id, price: to.priceId }],
        // The difference for the rest of the period is invoiced now; choosing a plan also means staying.
        proration_behavior: 'always_invoice',
        cancel_at_period_end: false,
      }),
    );
    return this.options.store.upsert(rowFromStripe(updated, row.userId, null));
  }

  async scheduleDowngrade(row: SubscriptionRow, to: PlanRow): Promise<SubscriptionRow> {
    const current = await this.call(() => this.stripe.subscriptions.retrieve(row.id));
    // A subscription ending at its period's end cannot take a schedule: choosing a plan resumes it first.
    if (current.cancel_at_period_end) await this.call(() => this.stripe.subscriptions.update(row.id, { cancel_at_period_end: false }));
    const scheduleId = idOf(current.schedule) ?? (await this.call(() => this.stripe.subscriptionSchedules.create({ from_subscription: row.id }))).id;
    const schedule = await this.call(() => this.stripe.subscriptionSchedules.retrieve(scheduleId));
    const phase = schedule.current_phase ?? (schedule.phases[0] ? { start_date: schedule.phases[0].start_date, end_date: schedule.phases[0].end_date } : null);
    if (!phase) throw new HttpError(409, BILLING_ERRORS.notActive);
    await this.call(() =>
      this.stripe.subscriptionSchedules.update(scheduleId, {
        end_behavior: 'release',
        proration_behavior: 'none',
        phases: [
          { items: [{ price: row.priceId, quantity: 1 }], start_date: phase.start_date, end_date: phase.end_date },
          { items: [{ price: to.priceId, quantity: 1 }], ...(to.interval ? { duration: { interval: to.interval, interval_count: 1 } } : {}) },
        ],
      }),
    );
    const after = await this.call(() => this.stripe.subscriptions.retrieve(row.id));
    return this.options.store.upsert(rowFromStripe(after, row.userId, to.priceId));
  }

  async cancel(row: SubscriptionRow): Promise<SubscriptionRow> {
    // A scheduled downgrade no longer happens: the subscription ends instead (a schedule would also refuse it).
    await this.releaseSchedule(row.id);
    const updated = await this.call(() => this.stripe.subscriptions.update(row.id, { cancel_at_period_end: true }));
    return this.options.store.upsert(rowFromStripe(updated, row.userId, null));
  }

  async endNow(rows: SubscriptionRow[]): Promise<SubscriptionRow[]> {
    const ended: SubscriptionRow[] = [];
    for (const row of rows) {
      const cancelled = await this.call(() => this.stripe.subscriptions.cancel(row.id));
      ended.push(await this.options.store.upsert(rowFromStripe(cancelled, row.userId, null)));
    }
    return ended;
  }

  /** The subscription after letting go of its schedule (a downgrade that was pending), if it had one. */
  private async releaseSchedule(id: string): Promise<Stripe.Subscription> {
    const current = await this.call(() => this.stripe.subscriptions.retrieve(id));
    const scheduleId = idOf(current.schedule);
    if (!scheduleId) return current;
    await this.call(() => this.stripe.subscriptionSchedules.release(scheduleId));
    return this.call(() => this.stripe.subscriptions.retrieve(id));
  }

  /**
   * Stripe's webhook: checks Stripe-Signature against the endpoint's secret (Stripe's own helper), then writes
   * the subscription of customer.subscription.created, .updated and .deleted. A bad signature changes nothing.
   */
  async applyWebhook(payload: Buffer, signature: string | undefined): Promise<ChangedSubscription | null> {
    const secret = this.options.webhookSecret;
    if (!secret) throw new HttpError(404, 'Stripe webhooks are not configured on this server');
    let event: Stripe.Event;
    try {
      if (!signature) throw new Error('no signature');
      event = this.stripe.webhooks.constructEvent(payload, signature, secret);
    } catch {
      throw new HttpError(400, BILLING_ERRORS.webhookSignature);
    }
    if (event.type !== 'customer.subscription.created' && event.type !== 'customer.subscription.updated' && event.type !== 'customer.subscription.deleted') return null;
    const subscription = event.data.object;
    const customer = idOf(subscription.customer);
    const userId = (customer && (await this.options.store.userOfCustomer('stripe', customer))) ?? null;
    if (!userId) {
      this.options.logger.warn({ subscription: subscription.id, event: event.type }, 'a Stripe subscription of no known customer was ignored');
      return null;
    }
    // Stripe does not promise the order of its events: the subscription is read as it is now, not as the event had it.
    const latest = event.type === 'customer.subscription.deleted' ? subscription : await this.stripe.subscriptions.retrieve(subscription.id).catch(() => subscription);
    const before = await this.options.store.subscriptionOf(userId, subscription.id);
    const saved = await this.options.store.upsert(rowFromStripe(latest, userId, before?.pendingPriceId ?? null));
    return { subscription: saved, change: webhookChange(event.type, before, saved) };
  }

  /** A Stripe call whose refusal becomes a 400 naming Stripe's reason; an unreachable Stripe a 502. */
  private async call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof HttpError) throw error;
      const stripeError = error as { type?: string; message?: string; statusCode?: number };
      if (stripeError.type === 'StripeInvalidRequestError' || stripeError.type === 'StripeCardError') {
        throw new HttpError(400, `Stripe refused the request: ${String(stripeError.message ?? 'invalid request').slice(0, 300)}`);
      }
      this.options.logger.warn({ err: error }, 'Stripe call failed');
      throw new HttpError(502, 'The payment provider could not be reached; try again in a moment');
    }
  }
}

/** A price as a plan row (the product expanded); prices without an amount (metered, custom) are not plans. */
function planFromPrice(price: Stripe.Price): Omit<PlanRow, 'position'>[] {
  const product = typeof price.product === 'object' && price.product && !('deleted' in price.product && price.product.deleted) ? price.product : null;
  if (price.unit_amount == null || !product || !product.active) return [];
  return [
    {
      priceId: price.id,
      productId: product.id,
      productName: product.name.slice(0, 200),
      productDescription: product.description ? product.description.slice(0, 1000) : null,
      unitAmount: price.unit_amount,
      currency: price.currency,
      interval: price.recurring?.interval ?? null,
      provider: 'stripe',
      active: true,
    },
  ];
}

/** What a webhook's subscription change was, for the event and `subscription.updated`. */
function webhookChange(type: string, before: SubscriptionRow | undefined, after: SubscriptionRow): SubscriptionChange {
  if (type === 'customer.subscription.deleted' || (before?.status === 'active' && after.status === 'canceled')) return 'ended';
  if (!before) return 'created';
  if (before.priceId !== after.priceId) return before.pendingPriceId === after.priceId ? 'downgraded' : 'updated';
  if (!before.cancelAtPeriodEnd && after.cancelAtPeriodEnd) return 'cancelled';
  if (before.currentPeriodEnd.getTime() !== after.currentPeriodEnd.getTime()) return 'renewed';
  return 'updated';
}
