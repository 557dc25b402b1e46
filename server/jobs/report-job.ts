import { plural } from '../../common/plural';
import { and, desc, eq, sql } from 'drizzle-orm';
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
import { JOB_LAPSE } from './lapse';

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

/** A running report whose heartbeat is older than this is taken to be orphaned (its worker died). */
export const REPORT_STALE_AFTER_SECONDS = JOB_LAPSE.staleAfterSeconds;
/** Workers that may die on one report before it fails for good: a page that kills its browser must not loop. */
export const REPORT_MAX_ATTEMPTS = 2;
const HEARTBEAT_MS = JOB_LAPSE.heartbeatMs;

/**
 * Takes the report for this worker: a queued one, or a running one whose worker stopped sending heartbeats (killed
 * with its process). One taken over more than REPORT_MAX_ATTEMPTS times fails with the reason instead.
 */
async function claim(deps: ReportJobDeps, reportId: string, publish: (row: ReportRow) => Promise<unknown>): Promise<ReportRow | undefined> {
  const [row] = await deps.db
    .update(reports)
    .set({ state: 'running', progress: { done: 0, total: 1, message: 'Starting' }, attempts: sql`${reports.attempts} + 1`, heartbeatAt: sql`now()`, error: null })
    .where(
      sql`${reports.id} = ${reportId} and ${reports.type} <> 'security' and (${reports.state} = 'queued' or (${reports.state} = 'running' and (${reports.heartbeatAt} is null or ${reports.heartbeatAt} < now() - make_interval(secs => ${REPORT_STALE_AFTER_SECONDS}))))`,
    )
    .returning();
  if (!row || row.attempts <= REPORT_MAX_ATTEMPTS) return row;
  const interrupted = row.attempts - 1;
  const [failed] = await deps.db
    .update(reports)
    .set({ state: 'failed', error: `The report was interrupted ${interrupted} times (the server or worker running it stopped); it was not started again.`, progress: null, heartbeatAt: null, finishedAt: sql`now()` })
    .where(and(eq(reports.id, row.id), eq(reports.attempts, row.attempts)))
    .returning();
  deps.logger.warn({ report: row.id, attempts: interrupted }, 'report interrupted too often; failed');
  if (failed) await publish(failed);
  return undefined;
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
  const row = await claim(deps, reportId, publish);
  if (!row) return;
  await publish(row);
  const log = logger.child({ report: row.id, type: row.type });
  // Only the attempt that holds the report writes to it: a worker taken for dead must not overwrite its successor.
  const owned = and(eq(reports.id, row.id), eq(reports.attempts, row.attempts), eq(reports.state, 'running'));

  let lastProgress = 0;
  const onProgress = (progress: { done: number; total: number; message?: string }) => {
    const now = Date.now();
    if (now - lastProgress < 300 && progress.done < progress.total) return;
    lastProgress = now;
    void db
      .update(reports)
      .set({ progress, heartbeatAt: sql`now()` })
      .where(owned)
      .returning()
      .then(([current]) => current && publish(current))
      .catch(() => undefined);
  };
  const heartbeat = setInterval(() => {
    db.update(reports)
      .set({ heartbeatAt: sql`now()` })
      .where(owned)
      .catch((error: Error) => log.warn({ err: error }, 'heartbeat failed'));
  }, HEARTBEAT_MS);
  heartbeat.unref();

  try {
    const content: { summary?: { totalIssues: number }; totalIssues?: number } = await produce(row, deps, signal, onProgress);
    const totalIssues = content.summary?.totalIssues ?? content.totalIssues ?? null;
    const [done] = await db
      .update(reports)
      .set({ state: 'completed', content: content, totalIssues, progress: null, heartbeatAt: null, finishedAt: sql`now()` })
      .where(owned)
      .returning();
    if (done) await publish(done);
    // Once per report: only the job that holds the running report gets here.
    if (done) await deps.webhooks?.emit({ workspaceId: done.workspaceId, userId: done.userId }, 'report.generated', reportGeneratedData(done));
    if (done) await deps.events.record([{ userId: row.userId, workspaceId: row.workspaceId, projectId: row.projectId, kind: 'other', url: row.url, extra: { description: `${row.type[0]!.toUpperCase()}${row.type.slice(1)} report generated: ${plural(totalIssues ?? 0, 'issue')}` } }]);
  } catch (error) {
    if (signal.aborted) {
      // Stopped with its process: back in the queue, and the attempt does not count against the report.
      await db.update(reports).set({ state: 'queued', progress: null, heartbeatAt: null, attempts: sql`${reports.attempts} - 1` }).where(owned);
      return;
    }
    log.warn({ err: error }, 'report failed');
    const [failed] = await db
      .update(reports)
      .set({ state: 'failed', error: (error as Error).message, progress: null, heartbeatAt: null, finishedAt: sql`now()` })
      .where(owned)
      .returning();
    if (failed) await publish(failed);
  } finally {
    clearInterval(heartbeat);
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
