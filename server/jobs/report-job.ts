import { plural } from '../../common/plural';
import { and, desc, eq, ne } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { AuditKind } from '../../common/audits';
import { scanResultSchema } from '../../common/scan';
import { auditAccessibility, auditPerformance, analyseEvents, AuditError } from '../../engine/audits/index';
import { findChromium } from '../../engine/browser';
import { renderAuditReport } from '../../engine/report/audit-html';
import { htmlToPdf, type ReportFormat } from '../../engine/report/index';
import type { AddressPolicy } from '../../engine/scan';
import type { Db } from '../db';
import { reports, scans } from '../db/schema';
import type { EventService } from '../events/service';
import type { LiveBus } from '../live/bus';
import type { WebhookEmitter } from '../webhooks/delivery';
import { reportGeneratedData } from '../webhooks/events';
import type { ReportLinks } from '../reports/links';
import { reportStatusFor } from '../reports/status';
import { claimLease, type Lease, type LeaseRules } from './lease';

export interface ReportJobDeps {
  db: Db;
  events: EventService;
  live: LiveBus;
  links: ReportLinks;
  logger: Logger;
  policy: AddressPolicy;
  /** Announces generated reports to the user's webhooks; absent = none. */
  webhooks?: WebhookEmitter;
}

const ANALYTICS_DAYS = 30;
const MAX_AUDITED_PAGES = 10;

type ReportRow = typeof reports.$inferSelect;

/** Pages to audit: the HTML pages of the project's latest scan, else the project's URL alone. */
async function pagesToAudit(db: Db, row: ReportRow): Promise<string[]> {
  if (!row.projectId) return [row.url];
  const [latest] = await db
    .select({ result: scans.result })
    .from(scans)
    .where(and(eq(scans.projectId, row.projectId), eq(scans.state, 'completed')))
    .orderBy(desc(scans.finishedAt))
    .limit(1);
  const parsed = scanResultSchema.safeParse(latest?.result);
  const pages = parsed.success ? parsed.data.pages.filter((page) => page.status < 400 && /html/i.test(page.contentType ?? '')).map((page) => page.url) : [];
  return pages.length ? [...new Set([row.url, ...pages])].slice(0, MAX_AUDITED_PAGES) : [row.url];
}

/** Workers that may die on one report before it fails for good: a page that kills its browser must not loop. */
export const REPORT_MAX_ATTEMPTS = 2;

/**
 * How reports are leased (server/jobs/lease.ts): security reports are written by their scan, never run here; a
 * running report without a heartbeat (left by a version before report heartbeats) is orphaned too; one taken over
 * more than REPORT_MAX_ATTEMPTS times fails with the reason; a restart gives its attempt back; progress goes with
 * every end.
 */
const REPORT_LEASE: LeaseRules = {
  only: ne(reports.type, 'security'),
  missingHeartbeatIsStale: true,
  maxAttempts: REPORT_MAX_ATTEMPTS,
  giveBackAttempt: true,
  resets: { progress: null },
};

type Progress = { done: number; total: number; message?: string };
/** Live progress at most this often (the last step goes at once). */
const PROGRESS_EVERY_MS = 300;

/**
 * The audit's progress callback: stored on the report while this attempt holds it (renewing its lease) and published,
 * at most every PROGRESS_EVERY_MS. A write or publication that fails is logged: the next one may succeed.
 */
export function progressWriter(
  lease: Lease<typeof reports>,
  publish: (row: ReportRow) => Promise<unknown>,
  log: Logger,
  now: () => number = Date.now,
): (progress: Progress) => void {
  let last = 0;
  return (progress) => {
    if (now() - last < PROGRESS_EVERY_MS && progress.done < progress.total) return;
    last = now();
    void lease
      .write({ progress })
      .then((current) => current && publish(current))
      .catch((error: Error) => log.warn({ err: error }, 'could not store the report progress'));
  };
}

/** Measures (performance, accessibility) or analyses (analytics) what the report is about. */
async function produce(row: ReportRow, deps: ReportJobDeps, signal: AbortSignal, onProgress: (progress: { done: number; total: number; message?: string }) => void) {
  if (row.type === 'analytics') {
    const to = new Date();
    const from = new Date(to.getTime() - ANALYTICS_DAYS * 24 * 3600 * 1000);
    const events = row.projectId ? await deps.events.latestOfProject(row.workspaceId, row.projectId, 20_000) : [];
    return analyseEvents(events, { from, to, target: row.url });
  }
  const browser = findChromium();
  if (browser.path === null) throw new AuditError('browser', `This report loads pages in a browser, and none was found: ${browser.reason}.`);
  const urls = await pagesToAudit(deps.db, row);
  const options = { executablePath: browser.path, policy: deps.policy, signal, onProgress };
  return row.type === 'performance' ? auditPerformance(urls, options) : auditAccessibility(urls, options);
}

/** Runs one performance, accessibility or analytics report job, measuring the project's site for real. */
export async function runReportJob(reportId: string, deps: ReportJobDeps, signal: AbortSignal): Promise<void> {
  const { db, live, links, logger } = deps;
  const publish = (current: ReportRow) => live.publish(current.workspaceId, { type: 'report.state', report: reportStatusFor(current, links) });
  const lease = await claimLease(db, reports, reportId, { extra: { progress: { done: 0, total: 1, message: 'Starting' } }, rules: REPORT_LEASE });
  if (!lease) return;
  const { row } = lease;
  const log = logger.child({ report: row.id, type: row.type });
  if (lease.exhausted) {
    const interrupted = row.attempts - 1;
    log.warn({ attempts: interrupted }, 'report interrupted too often; failed');
    const failed = await lease.end(`The report was interrupted ${interrupted} times (the server or worker running it stopped); it was not started again.`, { permanent: true });
    if (failed) await publish(failed);
    return;
  }
  await publish(row);
  // Every write below is made only while this attempt holds the report: a worker taken for dead must not overwrite its successor.
  const stopHeartbeat = lease.keepAlive(log);
  try {
    const content: { summary?: { totalIssues: number }; totalIssues?: number } = await produce(row, deps, signal, progressWriter(lease, publish, log));
    const totalIssues = content.summary?.totalIssues ?? content.totalIssues ?? null;
    const done = await lease.finish({ state: 'completed', content, totalIssues });
    // Once per report: only the attempt that holds the running report stores its end.
    if (!done) return;
    await publish(done);
    await deps.webhooks?.emit({ workspaceId: done.workspaceId, userId: done.userId }, 'report.generated', reportGeneratedData(done));
    await deps.events.record([
      {
        userId: row.userId,
        workspaceId: row.workspaceId,
        projectId: row.projectId,
        kind: 'other',
        url: row.url,
        extra: { description: `${row.type[0]!.toUpperCase()}${row.type.slice(1)} report generated: ${plural(totalIssues ?? 0, 'issue')}` },
      },
    ]);
  } catch (error) {
    if (signal.aborted) {
      // Stopped with its process: back in the queue, and the attempt does not count against the report.
      await lease.putBack();
      return;
    }
    log.warn({ err: error }, 'report failed');
    const failed = await lease.end((error as Error).message, { permanent: true });
    if (failed) await publish(failed);
  } finally {
    stopHeartbeat();
  }
}

/** Renders a stored performance, accessibility or analytics report in an export format. */
export async function renderStoredAudit(type: AuditKind, content: unknown, format: ReportFormat): Promise<Buffer | string> {
  if (format === 'pdf') {
    const html = renderAuditReport(type, content, 'html');
    return htmlToPdf(html, `vibeeval ${type} report`);
  }
  if (format === 'sarif') throw new Error('SARIF is available for security reports only.');
  return renderAuditReport(type, content, format);
}
