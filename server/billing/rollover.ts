import type PgBoss from 'pg-boss';

/** The queue of the billing period tick: one pg-boss schedule for every subscription. */
export const BILLING_ROLLOVER_QUEUE = 'billing-rollover';
/** Every minute: a period that ends is rolled over within a minute of its end, whichever server sends the tick. */
export const BILLING_ROLLOVER_CRON = '* * * * *';

/** Registers the minute tick that ends the local provider's periods (BillingService.rollover). */
export async function registerBillingRollover(boss: PgBoss, tick: () => Promise<unknown>, settle: (work: Promise<unknown>) => Promise<void>): Promise<void> {
  // No retry: the next tick, a minute later, finds whatever is still due.
  await boss.createQueue(BILLING_ROLLOVER_QUEUE, { name: BILLING_ROLLOVER_QUEUE, retryLimit: 0, expireInSeconds: 50, retentionDays: 1 });
  await boss.schedule(BILLING_ROLLOVER_QUEUE, BILLING_ROLLOVER_CRON, {}, { tz: 'UTC' });
  await boss.work(BILLING_ROLLOVER_QUEUE, { batchSize: 1, pollingIntervalSeconds: 2 }, async ([job]) => {
    if (job) await settle(tick());
  });
}
