import { randomBytes } from 'node:crypto';
import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import { BILLING_ERRORS } from '../../../common/billing';
import type { Db } from '../../db';
import { transaction } from '../../db/transaction';
import { subscriptions } from '../../db/schema';
import { type BillingProvider, type ChangedSubscription } from '../provider';
import type { BillingStore, PlanRow, SubscriptionRow } from '../store';
import { HttpError } from '../../http-errors';

// The local provider: the plans are the seeded rows of billing_plans (provider 'local'), periods are kept by this
// server's own clock (a calendar month or year from the subscription's start), and no payment is collected.

/** Subscriptions whose period ended, handled by one rollover pass; the rest are handled by the next minute's. */
export const ROLLOVER_BATCH = 500;
/** A server that was off for years still reaches the present in bounded steps. */
const MAX_PERIODS_SKIPPED = 100_000;

/**
 * The end of the period that starts at `start`: calendar months and years fall on `anchorDay` (the day of the month
 * the subscription started), cut to the month's last day (Jan 31 → Feb 28 → Mar 31, as Stripe's billing cycle
 * anchor does). No interval (a one-time price) is a lifetime: a hundred years.
 */
export function periodEnd(start: Date, interval: string | null, anchorDay = start.getUTCDate()): Date {
  if (interval === 'day' || interval === 'week') return new Date(start.getTime() + (interval === 'day' ? 1 : 7) * 86_400_000);
  const months = interval === 'year' ? 12 : interval === 'month' ? 1 : 1200;
  const year = start.getUTCFullYear();
  const month = start.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const end = new Date(start.getTime());
  end.setUTCFullYear(year, month, Math.min(anchorDay, lastDay));
  return end;
}

/** The period after the one that ended at `ended`, or the first one that is not over at `now` (a server that was off). */
export function nextPeriod(ended: Date, interval: string | null, anchorDay: number, now: Date): { start: Date; end: Date } {
  let start = ended;
  let end = periodEnd(start, interval, anchorDay);
  for (let skipped = 0; end <= now && skipped < MAX_PERIODS_SKIPPED; skipped++) {
    start = end;
    end = periodEnd(start, interval, anchorDay);
  }
  return { start, end };
}

export interface LocalProviderOptions {
  store: BillingStore;
  plans: (priceId: string) => Promise<PlanRow | undefined>;
  /** The clock (tests move it). */
  now?: () => Date;
}

export class LocalProvider implements BillingProvider {
  readonly name = 'local' as const;
  private readonly now: () => Date;

  constructor(private readonly options: LocalProviderOptions) {
    this.now = options.now ?? (() => new Date());
  }

  private get db(): Db {
    return this.options.store.db;
  }

  async refreshPlans(): Promise<void> {}

  async create(userId: string, plan: PlanRow): Promise<{ subscription: SubscriptionRow; hostedInvoiceUrl: null }> {
    const start = this.now();
    const subscription = await transaction(this.db, async (tx) => {
      // One subscription at a time per user: two requests at once are ordered here, the second finds the first.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`billing:${userId}`}, 0))`);
      if ((await this.options.store.activeOf(userId, tx)).length) throw new HttpError(409, BILLING_ERRORS.alreadySubscribed);
      const [row] = await tx
        .insert(subscriptions)
        .values({
          id: `sub_local_${randomBytes(12).toString('hex')}`,
          userId,
          provider: 'local',
          status: 'active',
          priceId: plan.priceId,
          currentPeriodStart: start,
          currentPeriodEnd: periodEnd(start, plan.interval),
          createdAt: start,
          updatedAt: start,
        })
        .returning();
      return row!;
    });
    return { subscription, hostedInvoiceUrl: null };
  }

  async upgrade(subscription: SubscriptionRow, to: PlanRow): Promise<SubscriptionRow> {
    // A plan chosen again resumes a subscription that was to end: choosing a plan means staying.
    return this.update(subscription, { priceId: to.priceId, pendingPriceId: null, cancelAtPeriodEnd: false });
  }

  async scheduleDowngrade(subscription: SubscriptionRow, to: PlanRow): Promise<SubscriptionRow> {
    return this.update(subscription, { pendingPriceId: to.priceId, cancelAtPeriodEnd: false });
  }

  async cancel(subscription: SubscriptionRow): Promise<SubscriptionRow> {
    // A downgrade scheduled before the cancellation no longer happens: the subscription ends instead.
    return this.update(subscription, { cancelAtPeriodEnd: true, pendingPriceId: null });
  }

  async endNow(rows: SubscriptionRow[]): Promise<SubscriptionRow[]> {
    if (!rows.length) return [];
    const now = this.now();
    return this.db
      .update(subscriptions)
      .set({ status: 'canceled', cancelAtPeriodEnd: false, pendingPriceId: null, currentPeriodEnd: now, updatedAt: now })
      .where(
        and(
          inArray(
            subscriptions.id,
            rows.map((row) => row.id),
          ),
          eq(subscriptions.status, 'active'),
        ),
      )
      .returning();
  }

  /** Changes an active subscription; one that ended meanwhile is refused rather than revived. */
  private async update(subscription: SubscriptionRow, set: Partial<typeof subscriptions.$inferInsert>): Promise<SubscriptionRow> {
    const [row] = await this.db
      .update(subscriptions)
      .set({ ...set, updatedAt: this.now() })
      .where(and(eq(subscriptions.id, subscription.id), eq(subscriptions.status, 'active')))
      .returning();
    if (!row) throw new HttpError(409, BILLING_ERRORS.notActive);
    return row;
  }

  /**
   * Ends the periods that are over at `now`: a cancelled subscription becomes 'canceled', a scheduled downgrade
   * becomes the price, any other starts its next period. Rows are claimed with SKIP LOCKED, so servers sharing
   * the database never roll one over twice.
   */
  async rollover(now: Date = this.now()): Promise<ChangedSubscription[]> {
    return transaction(this.db, async (tx) => {
      const due = await tx
        .select()
        .from(subscriptions)
        .where(and(eq(subscriptions.provider, 'local'), eq(subscriptions.status, 'active'), lte(subscriptions.currentPeriodEnd, now)))
        .orderBy(asc(subscriptions.currentPeriodEnd))
        .limit(ROLLOVER_BATCH)
        .for('update', { skipLocked: true });
      const changed: ChangedSubscription[] = [];
      for (const row of due) changed.push(await this.rollOne(tx, row, now));
      return changed;
    });
  }

  private async rollOne(tx: Db, row: SubscriptionRow, now: Date): Promise<ChangedSubscription> {
    if (row.cancelAtPeriodEnd) {
      const [ended] = await tx.update(subscriptions).set({ status: 'canceled', updatedAt: now }).where(eq(subscriptions.id, row.id)).returning();
      return { subscription: ended!, change: 'ended' };
    }
    const priceId = row.pendingPriceId ?? row.priceId;
    const interval = (await this.options.plans(priceId))?.interval ?? 'month';
    // The next period starts where the last one ended; periods missed while the server was off are skipped.
    const { start, end } = nextPeriod(row.currentPeriodEnd, interval, row.createdAt.getUTCDate(), now);
    const [rolled] = await tx
      .update(subscriptions)
      .set({ priceId, pendingPriceId: null, currentPeriodStart: start, currentPeriodEnd: end, updatedAt: now })
      .where(eq(subscriptions.id, row.id))
      .returning();
    return { subscription: rolled!, change: row.pendingPriceId ? 'downgraded' : 'renewed' };
  }
}
