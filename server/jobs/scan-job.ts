import { plural } from '../../common/plural';
import { and, eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { ScanResult } from '../../common/scan';
import { parseScanAccounts, type ScanAccount } from '../../common/scan-accounts';
import { scan as engineScan, ScanError, type AddressPolicy } from '../../engine/scan';
import type { Db } from '../db';
import { projects, reports, scans } from '../db/schema';
import { activeModeRefusal, passiveBecause } from '../domains/gate';
import { verifiedDomainsOf } from '../domains/service';
import type { Sealer } from '../projects/sealed';
import type { EventService } from '../events/service';
import type { LiveBus } from '../live/bus';
import { toScanSummary } from '../projects/service';
import { reportStatusFor } from '../reports/status';
import type { ReportLinks } from '../reports/links';
import { reportGeneratedData, scanCompletedData, scanFailedData } from '../webhooks/events';
import type { WebhookEmitter } from '../webhooks/delivery';
import { ScanEventBatcher } from './scan-events';
import { changesSincePrevious } from '../scan-history/changes';
import { ProgressPublisher, progressSinks } from './scan-progress';
import { completionEvents, storeScanResult } from './scan-result';
import { applySuppressions } from '../../engine/triage';
import { suppressionsOf } from '../triage/service';
import { claimLease, type Lease } from './lease';
import { claimStrikes, MAX_CHECK_STRIKES, strikeHooks, strikesMessage } from './check-strikes';
import type { CheckBudget } from '../../engine/isolation/budget';

/** Why a retried attempt of an active scan creates no throwaway account. */
export const RETRY_NO_THROWAWAY = 'No throwaway account was created: this is a retried attempt of the scan, whose first attempt may already have made one (one per scan).';

export interface ScanJobDeps {
  db: Db;
  events: EventService;
  live: LiveBus;
  logger: Logger;
  links: ReportLinks;
  policy: AddressPolicy;
  /** Ceiling of requests per second per host; unset = adaptive pacing only (see scanOptionsSchema). */
  rateLimit?: number;
  render: boolean;
  /** Browser for rendering: undefined = auto-detect. */
  chromiumPath?: string | null;
  /** Announces the completed scan and its report to the user's webhooks; absent = none. */
  webhooks?: WebhookEmitter;
  /** Called once a scan has completed or failed for good (continuous builds waiting for it are judged); absent = nothing. */
  onScanFinished?(scanId: string): Promise<void>;
  /** CPU time allowed to check code per check and per scan; absent = the engine's defaults. */
  checkBudget?: Partial<CheckBudget>;
  /** Opens the project's sealed credentials, whose test accounts the scan signs in as; absent = anonymous scans. */
  sealer?: Sealer;
  /** The engine's scan(); replaced in tests. */
  scan?: typeof engineScan;
}

/**
 * The test accounts in the project's Credentials field, for every scan of the project (Run Test, scheduled,
 * continuous, API, MCP). None when the field is empty, cannot be opened (sealed under another install's key) or
 * cannot be read as accounts; the log then says why, by line number only.
 */
export async function projectAccounts(db: Db, sealer: Sealer | undefined, projectId: string, log: Logger): Promise<ScanAccount[]> {
  if (!sealer) return [];
  const [row] = await db.select({ sealed: projects.secretInstructionSealed }).from(projects).where(eq(projects.id, projectId));
  if (!row?.sealed) return [];
  let text: string;
  try {
    text = sealer.open(row.sealed);
  } catch {
    log.warn('the project credentials could not be opened; the scan runs signed out');
    return [];
  }
  const parsed = parseScanAccounts(text, 'field');
  if (parsed.ok) return parsed.accounts;
  log.warn({ line: parsed.line }, 'the project credentials could not be read as test accounts; the scan runs signed out');
  return [];
}

type ScanRow = typeof scans.$inferSelect;

const publishState = (live: LiveBus, current: ScanRow, reportId: string | null = null) =>
  live.publish(current.workspaceId, { type: 'scan.state', project_id: current.projectId, scan_id: current.id, scan: toScanSummary(current, reportId) });

const baseOf = (row: ScanRow) => ({ userId: row.userId, workspaceId: row.workspaceId, projectId: row.projectId, scanId: row.id });

/**
 * Runs one scan job: claims the scan, runs the engine with live progress, records what happened as events,
 * stores the result and its security report. `finalAttempt` says whether a thrown error will be retried.
 */
export async function runScanJob(
  scanId: string,
  deps: ScanJobDeps,
  { signal, finalAttempt }: { signal?: AbortSignal; finalAttempt: boolean },
): Promise<'completed' | 'failed' | 'skipped'> {
  const { db, events, live, logger } = deps;
  // Taken over from a worker that died while check code ran: a strike against the site.
  const lease = await claimLease(db, scans, scanId, { extra: claimStrikes(scans) });
  if (!lease) return 'skipped';
  const { row } = lease;
  const log = logger.child({ scan: row.id, project: row.projectId });
  // A site whose checks stopped the scanner twice would do it again: the scan fails instead of a third run.
  if (row.checkStrikes >= MAX_CHECK_STRIKES) return await recordFailure(lease, new ScanError('checks-stopped', strikesMessage(deps.checkBudget)), deps, { finalAttempt: true });
  const owner = { scanId: row.id, attempt: row.attempts };
  // An attempt runs the scan from the start: the requests an earlier, interrupted attempt listed go.
  await events.clearEarlierAttempts(owner);
  await publishState(live, row);
  await events.record([
    { ...baseOf(row), kind: 'other', url: row.url, extra: { description: `Scan started (attempt ${row.attempts}, up to ${plural(row.numPages, 'page')})`, scan_id: row.id } },
  ]);

  const batcher = new ScanEventBatcher(events, owner, baseOf(row), log);
  const progress = new ProgressPublisher(row, progressSinks(db, live));
  batcher.start();
  const stopHeartbeat = lease.keepAlive(log, () => ({ progress: progress.latest }));

  try {
    const accounts = await projectAccounts(db, deps.sealer, row.projectId, log);
    // Asked to run active: checked again now (a domain may have lost its proof since the scan was queued).
    const activeRefusal = row.active ? await activeModeRefusal(deps.policy, row.url, () => verifiedDomainsOf(db, row.workspaceId)) : null;
    const scanned: ScanResult = await (deps.scan ?? engineScan)(
      row.url,
      { maxPages: row.numPages, render: deps.render, active: row.active && activeRefusal === null, rateLimit: deps.rateLimit },
      {
        addressPolicy: deps.policy,
        signal,
        chromiumPath: deps.chromiumPath,
        onExchange: (exchange) => batcher.add(exchange),
        onProgress: progress.onProgress,
        checkBudget: deps.checkBudget,
        ...strikeHooks(db, scans, row.id, log),
        // Beside the options, never in them: options are stored with the result, a password never is.
        ...(accounts.length ? { accounts } : {}),
        // One throwaway account per scan, ever: only the scan's first attempt may create it.
        ...(row.attempts > 1 ? { noThrowaway: RETRY_NO_THROWAWAY } : {}),
      },
    );
    await batcher.stop();
    if (activeRefusal) scanned.warnings.push(passiveBecause(activeRefusal));
    // The project's triage decisions, read as the scan ends: decided findings leave the score, the counts, the
    // events and the webhooks' figures, and the reports list them apart.
    const result = applySuppressions(scanned, await suppressionsOf(db, row.projectId));
    const finished = await storeScanResult(db, lease, result);
    if (!finished) {
      // Taken over by another worker while this one stalled past the lapse: the holder stores and announces the end.
      log.warn('scan taken over by another worker before it could store its result; its result is dropped');
      return 'skipped';
    }
    // Once per scan: only the attempt that claimed the scan gets here, and the scan is now completed for good.
    // A re-scan's notices lead with what is new since the project's previous scan. The scan is stored as completed
    // by now: a failure here costs the notices their headline, never the scan its state.
    const since = deps.webhooks
      ? await changesSincePrevious(db, finished.done, result).catch((error: unknown) => {
          log.warn({ err: error }, 'could not compare the scan with the previous one; its notices go without the changes');
          return null;
        })
      : null;
    await deps.webhooks?.emit({ workspaceId: row.workspaceId, userId: row.userId }, 'scan.completed', scanCompletedData(finished.done, since));
    await deps.webhooks?.emit({ workspaceId: row.workspaceId, userId: row.userId }, 'report.generated', reportGeneratedData(finished.report));
    await events.record(completionEvents(row, result, batcher.dropped));
    await publishState(live, finished.done, finished.report.id);
    await live.publish(row.workspaceId, { type: 'report.state', report: reportStatusFor(finished.report, deps.links, result.counts) });
    log.info({ grade: result.grade, findings: result.findings.length, ms: result.durationMs }, 'scan completed');
    await scanFinished(deps, row.id);
    return 'completed';
  } catch (error) {
    await batcher.stop();
    return await recordFailure(lease, error, deps, { signal, finalAttempt });
  } finally {
    stopHeartbeat();
  }
}

/**
 * After a scan threw: back to the queue when the process is stopping; otherwise failed for good (a ScanError,
 * or the last attempt) or queued again for a retry, which the thrown error asks pg-boss for.
 */
async function recordFailure(
  lease: Lease<typeof scans>,
  error: unknown,
  deps: ScanJobDeps,
  { signal, finalAttempt }: { signal?: AbortSignal; finalAttempt: boolean },
): Promise<'failed' | 'skipped'> {
  const { db, events, live } = deps;
  const { row } = lease;
  if (signal?.aborted) {
    // The process is stopping: the scan goes back to the queue and runs again, from the start, after a restart.
    await lease.putBack();
    await events.record([{ ...baseOf(row), kind: 'other', url: row.url, extra: { description: 'Scan interrupted by a server restart; it will run again', scan_id: row.id } }]);
    return 'skipped';
  }
  const permanent = error instanceof ScanError || finalAttempt;
  const message = error instanceof ScanError ? error.message : `The scan failed: ${(error as Error).message}`;
  deps.logger.child({ scan: row.id, project: row.projectId }).warn({ err: error, permanent }, 'scan failed');
  const failed = await lease.end(message, { permanent });
  if (failed) await publishState(live, failed);
  if (permanent) {
    // A security report waiting for this scan fails with it.
    const waiting = await db
      .update(reports)
      .set({ state: 'failed', error: message, finishedAt: sql`now()` })
      .where(and(eq(reports.scanId, row.id), eq(reports.type, 'security'), eq(reports.state, 'queued')))
      .returning();
    for (const report of waiting) await live.publish(report.workspaceId, { type: 'report.state', report: reportStatusFor(report, deps.links) });
  }
  await events.record([{ ...baseOf(row), kind: 'error', url: row.url, extra: { description: permanent ? message : `${message} (will retry)`, scan_id: row.id } }]);
  if (!permanent) throw error;
  // Once per scan, like scan.completed: the mail and the webhooks hear of a scan that failed for good.
  if (failed) await deps.webhooks?.emit({ workspaceId: row.workspaceId, userId: row.userId }, 'scan.failed', scanFailedData(failed));
  await scanFinished(deps, row.id);
  return 'failed';
}

/** Tells the optional listener a scan is over; its failure is logged, never the scan's. */
async function scanFinished(deps: ScanJobDeps, scanId: string): Promise<void> {
  await deps.onScanFinished?.(scanId).catch((error: unknown) => deps.logger.warn({ err: error, scan: scanId }, 'could not act on the finished scan'));
}
