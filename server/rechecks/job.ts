import { eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { RECHECK_LIMITS, RECHECK_TEXTS, RECHECK_TIMEOUT_MS } from '../../common/rechecks';
import type { AddressPolicy } from '../../engine/retrieval/address-policy';
import { recheckFinding, type RecheckOutcome } from '../../engine/recheck';
import type { Db } from '../db';
import { findingRechecks, projects } from '../db/schema';
import { activeModeRefusal } from '../domains/gate';
import { verifiedDomainsOf } from '../domains/service';
import type { EventService } from '../events/service';
import { claimLease, type Lease } from '../jobs/lease';
import type { JobContext } from '../jobs/queue';
import { projectAccounts } from '../jobs/scan-job';
import type { Sealer } from '../projects/sealed';
import { cut, type RecheckRow } from './service';

export interface RecheckJobDeps {
  db: Db;
  events: Pick<EventService, 'record'>;
  logger: Logger;
  policy: AddressPolicy;
  sealer?: Sealer;
  rateLimit?: number;
  render: boolean;
  /** The engine's recheckFinding(); replaced in tests. */
  recheck?: typeof recheckFinding;
  /** The longest one may run (RECHECK_TIMEOUT_MS); shortened in tests. */
  timeoutMs?: number;
}

const NO_THROWAWAY = 'No throwaway account is created by a check again: the scan that found the finding made one.';

type Leased = Lease<typeof findingRechecks>;

/**
 * Runs one check again (a job of the 'recheck' queue): claims its row, re-runs the finding's check against the site
 * with the project's test accounts and its scan's mode, stores the answer and records it in the project's activity,
 * once. A process that stops puts it back in the queue; an error is retried once, then the check again fails.
 */
export async function runRecheckJob(id: string, deps: RecheckJobDeps, { signal, finalAttempt }: JobContext): Promise<'completed' | 'failed' | 'skipped'> {
  const lease = await claimLease(deps.db, findingRechecks, id);
  if (!lease) return 'skipped';
  const { row } = lease;
  const log = deps.logger.child({ recheck: row.id, project: row.projectId });
  const stopHeartbeat = lease.keepAlive(log);
  const timeout = AbortSignal.timeout(deps.timeoutMs ?? RECHECK_TIMEOUT_MS);
  try {
    const outcome = await check(row, deps, AbortSignal.any([signal, timeout]), log);
    return (await finish(lease, outcome, deps)) ? 'completed' : 'skipped';
  } catch (error) {
    // Stopped with its process: back in the queue, to run after the restart (or on another process).
    if (signal.aborted) {
      await lease.putBack();
      return 'skipped';
    }
    if (timeout.aborted) return (await lease.end(RECHECK_TEXTS.timedOut, { permanent: true })) ? 'failed' : 'skipped';
    log.warn({ err: error, permanent: finalAttempt }, 'check again failed');
    await lease.end(cut(`The check could not run: ${(error as Error).message ?? String(error)}`, RECHECK_LIMITS.error), { permanent: finalAttempt });
    if (!finalAttempt) throw error;
    return 'failed';
  } finally {
    stopHeartbeat();
  }
}

/** The engine's check again of the row's finding, on the project's site as it is now. */
async function check(row: RecheckRow, deps: RecheckJobDeps, signal: AbortSignal, log: Logger): Promise<RecheckOutcome> {
  const { db, policy } = deps;
  const [project] = await db.select({ url: projects.url, workspaceId: projects.workspaceId }).from(projects).where(eq(projects.id, row.projectId));
  if (!project) throw new Error('the project is gone');
  const accounts = await projectAccounts(db, deps.sealer, row.projectId, log);
  // Active again only where a scan may be active now (the domain may have lost its proof since).
  const active = row.active && (await activeModeRefusal(policy, project.url, () => verifiedDomainsOf(db, project.workspaceId))) === null;
  return (deps.recheck ?? recheckFinding)(
    project.url,
    { checkId: row.checkId, url: row.url, fingerprint: row.fingerprint },
    { render: deps.render, rateLimit: deps.rateLimit, active },
    { addressPolicy: policy, signal, noThrowaway: NO_THROWAWAY, ...(accounts.length ? { accounts } : {}) },
  );
}

/** Stores the answer while this attempt holds the row, then records it in the activity; false if it no longer did. */
async function finish(lease: Leased, outcome: RecheckOutcome, deps: RecheckJobDeps): Promise<boolean> {
  const { row } = lease;
  const reason = outcome.reason ? cut(outcome.reason, RECHECK_LIMITS.reason) : null;
  const stored = await deps.db
    .update(findingRechecks)
    .set({ state: 'completed', status: outcome.status, reason, durationMs: outcome.durationMs, finishedAt: sql`now()`, heartbeatAt: null, error: null })
    .where(lease.mine)
    .returning({ id: findingRechecks.id });
  if (stored.length === 0) return false;
  await deps.events.record([
    {
      userId: row.userId,
      workspaceId: row.workspaceId,
      projectId: row.projectId,
      kind: 'other',
      url: row.url,
      extra: {
        description: RECHECK_TEXTS.event(row.title, outcome.status),
        fingerprint: row.fingerprint,
        recheck: outcome.status,
        recheck_id: row.id,
        ...(reason ? { reason } : {}),
      },
    },
  ]);
  return true;
}
