import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { DEFAULT_CHECK_BUDGET, type CheckBudget } from '../../engine/isolation/budget';
import type { ScanHooks } from '../../engine/scan';
import type { Db } from '../db';
import type { publicScans, scans } from '../db/schema';

/**
 * Strikes against a scan: a check stopped over its CPU-time budget, a check worker that died (out of memory), and a
 * process that died while check code ran (kill -9, or the whole process out of memory), seen when the orphaned
 * scan is claimed again. Each alone leaves the scan running or requeued; a site that has done it twice would do it
 * again, so the scan is not run a third time.
 */
export const MAX_CHECK_STRIKES = 2;

type ScanTable = typeof scans | typeof publicScans;

/** What a claim sets: an orphaned scan taken over while its check code ran (its process died in it) gets a strike. */
export function claimStrikes(table: ScanTable) {
  return {
    checkStrikes: sql<number>`${table.checkStrikes} + case when ${table.state} = 'running' and ${table.checksStartedAt} is not null then 1 else 0 end`,
    checksStartedAt: null,
  };
}

/** Why a scan with too many strikes failed, for the user. */
export function strikesMessage(budget: Partial<CheckBudget> = {}): string {
  const seconds = Math.round((budget.perCheckMs ?? DEFAULT_CHECK_BUDGET.perCheckMs) / 100) / 10;
  return `The scan was stopped: checking this site's pages used more than ${seconds} s of CPU time, or all the memory allowed, twice.`;
}

/**
 * The engine hooks that keep a scan's strikes: its row is marked while check code runs, and a check worker stopped
 * or lost is a strike. A mark that cannot be written is logged, never the scan's failure.
 */
export function strikeHooks(db: Db, table: ScanTable, id: string, log: Logger): Pick<ScanHooks, 'checking' | 'onCheckWorkerLost'> {
  return {
    checking: async (active) => {
      await db
        .execute(sql`update ${table} set ${sql.identifier('checks_started_at')} = ${active ? sql`now()` : null} where ${table.id} = ${id}`)
        .catch((error: Error) => log.warn({ err: error }, 'could not mark the scan as checking'));
    },
    onCheckWorkerLost: ({ checkId, reason }) => {
      log.warn({ check: checkId, reason }, 'check stopped');
      void db
        .execute(sql`update ${table} set ${sql.identifier('check_strikes')} = ${table.checkStrikes} + 1 where ${table.id} = ${id}`)
        .catch((error: Error) => log.warn({ err: error }, 'could not count a stopped check'));
    },
  };
}
