import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../db';
import type { findingRechecks, publicScans, scans, scenarioRuns } from '../db/schema';
import { JOB_LAPSE } from './lapse';

// A job whose row a worker leases: the worker claims the row (queued, or running with a heartbeat older than the
// lapse: its worker died), says it is alive while it works, and at the end either stores its result, puts the row back
// in the queue (the process is stopping), or fails it for good or queues it again for a retry. Every write after the
// claim is made only while this attempt still holds the row, so a worker that lost its lease (taken over after a
// stall) cannot undo what the new holder does. One module for scans, public scans, scenario runs and checks again.

/** The tables whose rows are leased: each has `state`, `heartbeat_at`, `attempts`, `started_at`, `finished_at`, `error`. */
export type LeasedTable = typeof scans | typeof publicScans | typeof scenarioRuns | typeof findingRechecks;

/** How often a lease is renewed and how old its last renewal may be before another worker takes it over. */
export interface LeaseTiming {
  heartbeatMs: number;
  staleAfterSeconds: number;
}

/** The process's timing (server/jobs/lapse.ts): environment variables shorten it in the tests of worker loss. */
export const LEASE_TIMING: LeaseTiming = { heartbeatMs: JOB_LAPSE.heartbeatMs, staleAfterSeconds: JOB_LAPSE.staleAfterSeconds };

/**
 * Drizzle's builders cannot type a statement over a table chosen by a type parameter. The leased tables share the
 * columns the statements below use (LeasedTable above), so each statement is typed on one of them and its row handed
 * back as the caller's table's row.
 */
const typed = (table: LeasedTable) => table as typeof scans;

/** A held lease on one row: the row as claimed, and the writes that only this attempt may make. */
export class Lease<T extends LeasedTable> {
  constructor(
    private readonly db: Db,
    private readonly table: T,
    /** The row as the claim left it (`state` running, `attempts` counting this attempt). */
    readonly row: T['$inferSelect'],
    private readonly timing: LeaseTiming = LEASE_TIMING,
  ) {}

  /** This row, this attempt, still running: the condition of every write of the holder. */
  get mine(): SQL {
    const table = typed(this.table);
    return and(eq(table.id, this.row.id), eq(table.attempts, this.row.attempts), eq(table.state, 'running'))!;
  }

  /**
   * Renews the lease every heartbeat until the returned function is called; `extra` adds columns to each renewal
   * (a scan's latest progress). A renewal that fails is logged: the next one may succeed before the lapse.
   */
  keepAlive(log: Logger, extra: () => Record<string, unknown> = () => ({})): () => void {
    const timer = setInterval(() => {
      void this.db
        .update(typed(this.table))
        .set({ ...extra(), heartbeatAt: sql`now()` })
        .where(this.mine)
        .catch((error: Error) => log.warn({ err: error }, 'heartbeat failed'));
    }, this.timing.heartbeatMs);
    return () => clearInterval(timer);
  }

  /** The process is stopping: the row goes back to the queue, to run again from the start. False if no longer held. */
  async putBack(): Promise<boolean> {
    const rows = await this.db.update(typed(this.table)).set({ state: 'queued', heartbeatAt: null }).where(this.mine).returning({ id: typed(this.table).id });
    return rows.length > 0;
  }

  /**
   * The attempt failed with `message`: for good when `permanent` (`state` failed, finished now), else queued again
   * for the queue's retry. The row as written; undefined if this attempt no longer holds it.
   */
  async end(message: string, { permanent }: { permanent: boolean }): Promise<T['$inferSelect'] | undefined> {
    const [row] = await this.db
      .update(typed(this.table))
      .set({ state: permanent ? 'failed' : 'queued', error: message, heartbeatAt: null, finishedAt: permanent ? sql`now()` : null })
      .where(this.mine)
      .returning();
    return row;
  }
}

/**
 * Takes row `id` for this worker: a queued row, or a running one whose worker stopped renewing its lease. `extra`
 * adds columns to the claim (a scan's strikes). Undefined when another worker holds it or it is finished (a
 * duplicate or late job).
 */
export async function claimLease<T extends LeasedTable>(
  db: Db,
  table: T,
  id: string,
  { extra = {}, timing = LEASE_TIMING }: { extra?: Record<string, unknown>; timing?: LeaseTiming } = {},
): Promise<Lease<T> | undefined> {
  const t = typed(table);
  const [row] = await db
    .update(t)
    .set({ ...extra, state: 'running', startedAt: sql`now()`, heartbeatAt: sql`now()`, attempts: sql`${t.attempts} + 1`, error: null })
    .where(sql`${t.id} = ${id} and (${t.state} = 'queued' or (${t.state} = 'running' and ${t.heartbeatAt} < now() - make_interval(secs => ${timing.staleAfterSeconds})))`)
    .returning();
  return row ? new Lease(db, table, row, timing) : undefined;
}

/**
 * Puts the rows still running among `ids` back in the queue: jobs of a process that stops (or lost its database)
 * before they could do it themselves. A failure is logged: the reaper of the next start finds them by their lapse.
 */
export async function putBackRunning(db: Db, table: LeasedTable, ids: string[], log: Logger): Promise<void> {
  if (ids.length === 0) return;
  const t = typed(table);
  await db
    .update(t)
    .set({ state: 'queued', heartbeatAt: null })
    .where(and(eq(t.state, 'running'), inArray(t.id, ids)))
    .then(
      () => undefined,
      (error: Error) => log.warn({ err: error, ids }, 'could not put jobs back in the queue'),
    );
}
