import { and, eq, getTableColumns, inArray, sql, type SQL } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../db';
import type { findingRechecks, publicScans, reports, scans, scenarioRuns } from '../db/schema';
import { JOB_LAPSE } from './lapse';

// A job whose row a worker leases: the worker claims the row (queued, or running with a heartbeat older than the
// lapse: its worker died), says it is alive while it works, and at the end either stores its result, puts the row back
// in the queue (the process is stopping), or fails it for good or queues it again for a retry. Every write after the
// claim is made only while this attempt still holds the row, so a worker that lost its lease (taken over after a
// stall) cannot undo what the new holder does. One module for scans, public scans, scenario runs, checks again and
// reports; what differs between them is said by the job's LeaseRules.

/**
 * The tables whose rows are leased: each has `state`, `heartbeat_at`, `attempts`, `finished_at`, `error`, and all
 * but reports a `started_at`.
 */
export type LeasedTable = typeof scans | typeof publicScans | typeof scenarioRuns | typeof findingRechecks | typeof reports;

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

/** How a kind of job's rows are leased beyond what every job shares (all optional: a scan uses none). */
export interface LeaseRules {
  /** What a row must also be to be claimed by this job (a report kind that its scan writes is never run here). */
  only?: SQL;
  /** A running row without any heartbeat is taken to be orphaned too: rows left by versions before their heartbeats. */
  missingHeartbeatIsStale?: boolean;
  /** Claims after which the row is not run again: `exhausted` says so, and the job ends it for good. */
  maxAttempts?: number;
  /** A put-back by a stopping process gives its attempt back: a restart does not count against `maxAttempts`. */
  giveBackAttempt?: boolean;
  /** Columns that every release of the row (put back, ended, finished) resets: a report's progress. */
  resets?: Record<string, unknown>;
}

/** A held lease on one row: the row as claimed, and the writes that only this attempt may make. */
export class Lease<T extends LeasedTable> {
  constructor(
    private readonly db: Db,
    private readonly table: T,
    /** The row as the claim left it (`state` running, `attempts` counting this attempt). */
    readonly row: T['$inferSelect'],
    private readonly timing: LeaseTiming = LEASE_TIMING,
    private readonly rules: LeaseRules = {},
  ) {}

  /** The row was claimed more often than its job's `maxAttempts`: it is not to run again. */
  get exhausted(): boolean {
    return this.rules.maxAttempts !== undefined && this.row.attempts > this.rules.maxAttempts;
  }

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
    // The renewals alone never keep a process alive: its jobs end (or are put back) with it.
    timer.unref();
    return () => clearInterval(timer);
  }

  /**
   * Writes `values` (a job's progress) while this attempt holds the row, renewing the lease with them. The row as
   * written; undefined if this attempt no longer holds it.
   */
  async write(values: Record<string, unknown>): Promise<T['$inferSelect'] | undefined> {
    const [row] = await this.db
      .update(typed(this.table))
      .set({ ...values, heartbeatAt: sql`now()` })
      .where(this.mine)
      .returning();
    return row;
  }

  /**
   * The attempt's work is done: `values` (its final state, its result) stored, the lease released and the row
   * finished now. The row as written; undefined if this attempt no longer holds it (another stores its own end).
   */
  async finish(values: Record<string, unknown>): Promise<T['$inferSelect'] | undefined> {
    const [row] = await this.db
      .update(typed(this.table))
      .set({ ...values, ...this.rules.resets, heartbeatAt: null, finishedAt: sql`now()` })
      .where(this.mine)
      .returning();
    return row;
  }

  /** The process is stopping: the row goes back to the queue, to run again from the start. False if no longer held. */
  async putBack(): Promise<boolean> {
    const t = typed(this.table);
    const attempt = this.rules.giveBackAttempt ? { attempts: sql`${t.attempts} - 1` } : {};
    const rows = await this.db
      .update(t)
      .set({ ...this.rules.resets, ...attempt, state: 'queued', heartbeatAt: null })
      .where(this.mine)
      .returning({ id: t.id });
    return rows.length > 0;
  }

  /**
   * The attempt failed with `message`: for good when `permanent` (`state` failed, finished now), else queued again
   * for the queue's retry. The row as written; undefined if this attempt no longer holds it.
   */
  async end(message: string, { permanent }: { permanent: boolean }): Promise<T['$inferSelect'] | undefined> {
    const [row] = await this.db
      .update(typed(this.table))
      .set({ ...this.rules.resets, state: permanent ? 'failed' : 'queued', error: message, heartbeatAt: null, finishedAt: permanent ? sql`now()` : null })
      .where(this.mine)
      .returning();
    return row;
  }
}

/**
 * Takes row `id` for this worker: a queued row, or a running one whose worker stopped renewing its lease. `extra`
 * adds columns to the claim (a scan's strikes, a report's first progress); `rules` are the job's (LeaseRules).
 * Undefined when another worker holds it, it is finished (a duplicate or late job), or it is not the job's.
 */
export async function claimLease<T extends LeasedTable>(
  db: Db,
  table: T,
  id: string,
  { extra = {}, timing = LEASE_TIMING, rules = {} }: { extra?: Record<string, unknown>; timing?: LeaseTiming; rules?: LeaseRules } = {},
): Promise<Lease<T> | undefined> {
  const t = typed(table);
  const lapsed = sql`${t.heartbeatAt} < now() - make_interval(secs => ${timing.staleAfterSeconds})`;
  const stale = rules.missingHeartbeatIsStale ? sql`(${t.heartbeatAt} is null or ${lapsed})` : lapsed;
  const claimable = sql`${t.id} = ${id} and (${t.state} = 'queued' or (${t.state} = 'running' and ${stale}))`;
  const started = 'startedAt' in getTableColumns(table) ? { startedAt: sql`now()` } : {};
  const [row] = await db
    .update(t)
    .set({ ...extra, ...started, state: 'running', heartbeatAt: sql`now()`, attempts: sql`${t.attempts} + 1`, error: null })
    .where(rules.only ? and(claimable, rules.only) : claimable)
    .returning();
  return row ? new Lease(db, table, row, timing, rules) : undefined;
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
