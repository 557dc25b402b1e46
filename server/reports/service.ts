import { and, desc, eq, sql } from 'drizzle-orm';
import type { GenerateReportBody, ReportType } from '../../common/projects';
import { findingTally, scanResultSchema, type ScanResult, type SeverityCounts } from '../../common/scan';
import { renderReport, type ReportChanges, type ReportFormat } from '../../engine/report/index';
import type { Db } from '../db';
import { reports, scans } from '../db/schema';
import { HttpError } from '../http-errors';
import type { Jobs } from '../jobs/queue';
import type { LiveBus } from '../live/bus';
import { cursorTimestampSql, decodeCursor, pageOf } from '../pagination';
import { isUuid, type ProjectService } from '../projects/service';
import { changesSincePrevious, reportChanges } from '../scan-history/changes';
import type { Actor } from '../workspaces/actor';
import type { ReportLinks } from './links';
import { reportLinkFor, reportStatusFor } from './status';

export type ReportRow = typeof reports.$inferSelect;
type ScanCounts = Partial<SeverityCounts> | null;

export interface ReportServiceDeps {
  db: Db;
  projects: ProjectService;
  jobs: Jobs;
  live: LiveBus;
  links: ReportLinks;
  /** Renders a non-security report (performance, accessibility, analytics) from its stored content. */
  renderAudit?: (type: Exclude<ReportType, 'security'>, content: unknown, format: ReportFormat) => Promise<Buffer | string>;
}

/** A completed report opened through a signed link: its row, and for a security report its scan's result and changes. */
export interface SignedReport {
  row: ReportRow;
  result?: ScanResult;
  changes?: ReportChanges;
}

/** Reports of a workspace: the recent links, generating one, its status, and a completed one's rendering. */
export class ReportService {
  constructor(private readonly deps: ReportServiceDeps) {}

  /** The workspace's completed reports as links, newest first, a page at a time. */
  async recentLinks(workspaceId: string, { limit, cursor }: { limit: number; cursor?: string }) {
    const { db, links } = this.deps;
    const after = decodeCursor(cursor);
    const mine = and(eq(reports.workspaceId, workspaceId), eq(reports.state, 'completed'));
    const rows = await db
      .select({ row: reports, counts: scans.counts, sortAt: sql<string>`${sql.raw(cursorTimestampSql('"reports"."created_at"'))}` })
      .from(reports)
      .leftJoin(scans, eq(scans.id, reports.scanId))
      .where(after ? and(mine, sql`(${reports.createdAt}, ${reports.id}) < (${after.at}::timestamptz, ${after.id}::uuid)`) : mine)
      .orderBy(desc(reports.createdAt), desc(reports.id))
      .limit(limit + 1);
    const page = pageOf(rows, limit, ({ row, sortAt }) => ({ at: sortAt, id: row.id }));
    return { items: page.items.map(({ row, counts }) => reportLinkFor(row, links, counts)), next: page.next };
  }

  /**
   * A new report of `body.type` for the project, announced on the live stream. The security report is the latest
   * scan's, completed at once; with no scan finished yet, a scan is started (or the one running is joined) and the
   * report waits for it. Other reports are queued for the report job.
   */
  async create(actor: Actor, body: GenerateReportBody) {
    const { db, projects, jobs, live, links } = this.deps;
    const project = await projects.row(actor, body.project_id);
    const owner = { userId: actor.userId, workspaceId: project.workspaceId, projectId: project.id, url: project.url };
    const type = body.type;
    let row: ReportRow;
    let counts: ScanCounts = null;
    if (type === 'security') {
      const done = await this.latestCompletedScan(project.id);
      if (done) {
        counts = await this.countsOf(done);
        [row] = (await db
          .insert(reports)
          .values({ ...owner, scanId: done, type, state: 'completed', totalIssues: counts && findingTally(counts).issues, finishedAt: new Date() })
          .returning()) as [ReportRow];
      } else {
        const scanId = await this.scanToWaitFor(actor, project.id);
        [row] = (await db
          .insert(reports)
          .values({ ...owner, scanId, type, state: 'queued' })
          .returning()) as [ReportRow];
      }
    } else {
      [row] = (await db
        .insert(reports)
        .values({ ...owner, type, state: 'queued' })
        .returning()) as [ReportRow];
      await jobs.enqueueReport(row.id);
    }
    const status = reportStatusFor(row, links, counts);
    await live.publish(project.workspaceId, { type: 'report.state', report: status });
    return { status, completed: row.state === 'completed' };
  }

  /** A report of the workspace, as its status answers it. */
  async status(workspaceId: string, id: string) {
    if (!isUuid(id)) throw new HttpError(404, 'Report not found');
    const [row] = await this.deps.db
      .select()
      .from(reports)
      .where(and(eq(reports.id, id), eq(reports.workspaceId, workspaceId)));
    if (!row) throw new HttpError(404, 'Report not found');
    return reportStatusFor(row, this.deps.links, row.scanId ? await this.countsOf(row.scanId) : null);
  }

  /** The completed report `id` for its signed pages (the link's signature is checked by the route); undefined when there is none. */
  async signed(id: string): Promise<SignedReport | undefined> {
    const { db } = this.deps;
    const [row] = isUuid(id) ? await db.select().from(reports).where(eq(reports.id, id)) : [];
    if (!row || row.state !== 'completed') return undefined;
    if (row.type !== 'security' || !row.scanId) return { row };
    const [scan] = await db.select({ id: scans.id, projectId: scans.projectId, finishedAt: scans.finishedAt, result: scans.result }).from(scans).where(eq(scans.id, row.scanId));
    const parsed = scanResultSchema.safeParse(scan?.result);
    if (!scan || !parsed.success) return { row };
    // What changed since the project's previous scan: the reports' 'Since the previous scan'.
    return { row, result: parsed.data, changes: reportChanges(await changesSincePrevious(db, scan, parsed.data)) };
  }

  /** A signed report in `format`; undefined when it has nothing to render (a security report whose scan result is gone). */
  async render({ row, result, changes }: SignedReport, format: ReportFormat): Promise<Buffer | string | undefined> {
    if (row.type === 'security') return result ? renderReport(result, format, {}, changes) : undefined;
    if (!this.deps.renderAudit || !row.content) return undefined;
    return this.deps.renderAudit(row.type, row.content, format);
  }

  private async latestCompletedScan(projectId: string): Promise<string | undefined> {
    const [done] = await this.deps.db
      .select({ id: scans.id })
      .from(scans)
      .where(and(eq(scans.projectId, projectId), eq(scans.state, 'completed')))
      .orderBy(desc(scans.finishedAt))
      .limit(1);
    return done?.id;
  }

  /** A scan started for the report, or the project's scan already queued or running. */
  private async scanToWaitFor(actor: Actor, projectId: string): Promise<string> {
    try {
      const scan = await this.deps.projects.queueScan(actor, projectId, 'manual');
      await this.deps.jobs.enqueueScan(scan.id);
      return scan.id;
    } catch (error) {
      if (!(error instanceof HttpError) || error.statusCode !== 409) throw error;
      const [active] = await this.deps.db.select({ id: scans.id }).from(scans).where(eq(scans.projectId, projectId)).orderBy(desc(scans.queuedAt)).limit(1);
      return active!.id;
    }
  }

  /** A scan's counts by severity: null until it is done. */
  private async countsOf(scanId: string): Promise<ScanCounts> {
    const [scan] = await this.deps.db.select({ counts: scans.counts }).from(scans).where(eq(scans.id, scanId));
    return scan?.counts ?? null;
  }
}
