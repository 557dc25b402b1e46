import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../db';
import { openFreshDatabase } from '../testing/fresh-database';
import { startJobs, type Jobs } from './queue';

/** Lets every promise callback and I/O callback queued so far run (a rejection reaches its handler). */
async function settleCallbacks(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

describe('stopping the job queue', () => {
  let database: Database;
  let unhandled: unknown[];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);

  beforeEach(async () => {
    database = await openFreshDatabase();
    unhandled = [];
    process.on('unhandledRejection', onUnhandled);
  });
  afterEach(() => {
    process.off('unhandledRejection', onUnhandled);
  });

  it('leaves no write of pg-boss behind for a closed pool, even for a job that ends after the stop', async () => {
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    let fail!: (error: Error) => void;
    const jobs: Jobs = await startJobs({
      database,
      logger: pino({ level: 'silent' }),
      workers: {
        'webhook-delivery': {
          concurrency: 1,
          run: () => {
            started();
            return new Promise((_resolve, reject) => (fail = reject));
          },
        },
      },
    });
    await jobs.enqueueWebhookAttempt('00000000-0000-4000-8000-000000000001', 0);
    await running;
    // The attempt outlives the stop's grace period; the server closes the pool right after the stop, as it does.
    await jobs.stop();
    await database.close();
    fail(new Error('the delivery failed'));
    await settleCallbacks();
    expect(unhandled).toEqual([]);
  }, 60_000);
});
