import { eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { scanResultSchema, type ScanResult } from '../../common/scan';
import { renderReport } from '../../engine/report/index';
import { scan as runScan, ScanError, type AddressPolicy } from '../../engine/scan';
import type { Db } from '../db';
import { publicScans } from '../db/schema';
import type { Mailer } from '../mail/mailer';
import { publicReportMail, publicScanFailedMail } from './mail';
import { claimLease, type Lease } from '../jobs/lease';
import { claimStrikes, MAX_CHECK_STRIKES, strikeHooks, strikesMessage } from '../jobs/check-strikes';
import type { CheckBudget } from '../../engine/isolation/budget';

export interface PublicScanJobDeps {
  db: Db;
  mailer: Mailer;
  logger: Logger;
  policy: AddressPolicy;
  /** Ceiling of requests per second per host; unset = adaptive pacing only (see scanOptionsSchema). */
  rateLimit?: number;
  render: boolean;
  maxPages: number;
  /** The signed link to the stored report (GET /v2/vibe-scanner/{id}/report). */
  reportLink: (id: string) => string;
  chromiumPath?: string | null;
  /** CPU time allowed to check code per check and per scan; absent = the engine's defaults. */
  checkBudget?: Partial<CheckBudget>;
  /** The engine's scan(); replaced in tests. */
  scan?: typeof runScan;
}

type Row = typeof publicScans.$inferSelect;

/**
 * One public quick scan: scan (unless already done), then mail the report (unless already sent). Both steps are
 * idempotent, so a retried job only redoes what failed. A mail that cannot be delivered is logged and retried;
 * the stored result keeps the report retrievable through its signed link either way.
 */
export async function runPublicScanJob(
  id: string,
  deps: PublicScanJobDeps,
  { signal, finalAttempt }: { signal?: AbortSignal; finalAttempt: boolean },
): Promise<'mailed' | 'mail-failed' | 'skipped'> {
  const { db, logger } = deps;
  const log = logger.child({ publicScan: id });
  let [row] = await db.select().from(publicScans).where(eq(publicScans.id, id));
  if (!row) return 'skipped';

  if (row.state === 'queued' || row.state === 'running') {
    const lease = await claimLease(db, publicScans, id, { extra: claimStrikes(publicScans) });
    if (!lease) return 'skipped'; // another worker is scanning it
    row = await scanOnce(lease, deps, log, { signal, finalAttempt });
    if (!row) return 'skipped';
  }
  if (row.mailState === 'sent') return 'skipped';

  try {
    await deps.mailer.send(await mailFor(row, deps));
    await db
      .update(publicScans)
      .set({ mailState: 'sent', mailedAt: sql`now()`, mailError: null, mailAttempts: sql`${publicScans.mailAttempts} + 1` })
      .where(eq(publicScans.id, id));
    log.info({ state: row.state, to: deps.mailer.destination }, 'public scan report mailed');
    return 'mailed';
  } catch (error) {
    const message = (error as Error).message;
    await db
      .update(publicScans)
      .set({ mailState: 'failed', mailError: message.slice(0, 500), mailAttempts: sql`${publicScans.mailAttempts} + 1` })
      .where(eq(publicScans.id, id));
    log.error({ err: error, willRetry: !finalAttempt }, 'public scan report could not be mailed; the report is kept and stays retrievable');
    if (!finalAttempt) throw error;
    return 'mail-failed';
  }
}

/**
 * Runs the scan and stores its outcome; undefined when the process is stopping (the scan goes back to the queue) or
 * another worker took the scan over (it stores and mails the outcome).
 */
async function scanOnce(
  lease: Lease<typeof publicScans>,
  deps: PublicScanJobDeps,
  log: Logger,
  { signal, finalAttempt }: { signal?: AbortSignal; finalAttempt: boolean },
): Promise<Row | undefined> {
  const { db } = deps;
  const { row } = lease;
  // A site whose checks stopped the scanner twice would do it again: the scan fails (and its mail says why).
  if (row.checkStrikes >= MAX_CHECK_STRIKES) {
    log.warn({ strikes: row.checkStrikes }, 'public scan failed: its checks stopped the scanner twice');
    return await lease.end(strikesMessage(deps.checkBudget), { permanent: true });
  }
  const stopHeartbeat = lease.keepAlive(log);
  try {
    const result = await (deps.scan ?? runScan)(
      row.url,
      { maxPages: deps.maxPages, render: deps.render, active: false, rateLimit: deps.rateLimit },
      { addressPolicy: deps.policy, signal, chromiumPath: deps.chromiumPath, checkBudget: deps.checkBudget, ...strikeHooks(db, publicScans, row.id, log) },
    );
    const done = await lease.finish({ state: 'completed', result, grade: result.grade });
    // Taken over by another worker while this one stalled past the lapse: the holder stores the end and mails it.
    if (!done) {
      log.warn('public scan taken over by another worker before it could store its result; its result is dropped');
      return undefined;
    }
    log.info({ grade: result.grade, findings: result.findings.length, ms: result.durationMs }, 'public scan completed');
    return done;
  } catch (error) {
    if (signal?.aborted) {
      await lease.putBack();
      return undefined;
    }
    const permanent = error instanceof ScanError || finalAttempt;
    const message = error instanceof ScanError ? error.message : `The scan failed: ${(error as Error).message}`;
    log.warn({ err: error, permanent }, 'public scan failed');
    const failed = await lease.end(message, { permanent });
    if (!permanent) throw error;
    return failed;
  } finally {
    stopHeartbeat();
  }
}

async function mailFor(row: Row, deps: PublicScanJobDeps) {
  if (row.state !== 'completed' || !row.result) {
    return publicScanFailedMail({ to: row.email, url: row.url, reason: row.error ?? 'The scan did not finish.' });
  }
  const result: ScanResult = scanResultSchema.parse(row.result);
  const reportHtml = String(await renderReport(result, 'html'));
  return publicReportMail({ to: row.email, url: row.url, result, reportHtml, reportLink: deps.reportLink(row.id) });
}
