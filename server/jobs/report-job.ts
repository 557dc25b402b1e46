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

/** Runs one performance, accessibility or analytics report job, measuring the project's site for real. */
export async function runReportJob(reportId: string, deps: ReportJobDeps, signal: AbortSignal): Promise<void> {
  const { db, live, links, logger } = deps;
  const [row] = await db
    .update(reports)
    .set({ state: 'running', progress: { done: 0, total: 1, message: 'Starting' } })
    .where(and(eq(reports.id, reportId), eq(reports.state, 'queued')))
    .returning();
  if (!row || row.type === 'security') return;
  const publish = (current: ReportRow) => live.publish(current.workspaceId, { type: 'report.state', report: reportStatusFor(current, links) }).catch(() => undefined);
  await publish(row);
  const log = logger.child({ report: row.id, type: row.type });

  let lastProgress = 0;
  const onProgress = (progress: { done: number; total: number; message?: string }) => {
    const now = Date.now();
    if (now - lastProgress < 300 && progress.done < progress.total) return;
    lastProgress = now;
    void db
      .update(reports)
      .set({ progress })
      .where(eq(reports.id, row.id))
      .returning()
      .then(([current]) => current && publish(current))
      .catch(() => undefined);
  };

  try {
    let content: { summary?: { totalIssues: number }; totalIssues?: number };
    if (row.type === 'analytics') {
      const to = new Date();
      const from = new Date(to.getTime() - ANALYTICS_DAYS * 24 * 3600 * 1000);
      const events = row.projectId ? await deps.events.latestOfProject(row.workspaceId, row.projectId, 20_000) : [];
      content = analyseEvents(events, { from, to, target: row.url });
    } else {
      const browser = findChromium();
      if (browser.path === null) throw new AuditError('browser', `This report loads pages in a browser, and none was found: ${browser.reason}.`);
      const urls = await pagesToAudit(db, row);
      const options = { executablePath: browser.path, policy: deps.policy, signal, onProgress };
      content = row.type === 'performance' ? await auditPerformance(urls, options) : await auditAccessibility(urls, options);
    }
    const totalIssues = content.summary?.totalIssues ?? content.totalIssues ?? null;
    const [done] = await db
      .update(reports)
      .set({ state: 'completed', content: content, totalIssues, progress: null, finishedAt: sql`now()` })
      .where(eq(reports.id, row.id))
      .returning();
    if (done) await publish(done);
    // Once per report: only the job that moved it from queued to running gets here.
    if (done) await deps.webhooks?.emit({ workspaceId: done.workspaceId, userId: done.userId }, 'report.generated', reportGeneratedData(done));
    await deps.events.record([{ userId: row.userId, workspaceId: row.workspaceId, projectId: row.projectId, kind: 'other', url: row.url, extra: { description: `${row.type[0]!.toUpperCase()}${row.type.slice(1)} report generated: ${totalIssues ?? 0} issue${totalIssues === 1 ? '' : 's'}` } }]);
  } catch (error) {
    if (signal.aborted) {
      await db.update(reports).set({ state: 'queued', progress: null }).where(eq(reports.id, row.id));
      return;
    }
    log.warn({ err: error }, 'report failed');
    const [failed] = await db
      .update(reports)
      .set({ state: 'failed', error: (error as Error).message, progress: null, finishedAt: sql`now()` })
      .where(eq(reports.id, row.id))
      .returning();
    if (failed) await publish(failed);
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
