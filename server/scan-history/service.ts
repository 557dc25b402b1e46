import { and, desc, eq, inArray, lt } from 'drizzle-orm';
import type { Pool } from 'pg';
import type { PageQuery } from '../../common/pagination';
import { SEVERITY_RANK, scanResultSchema, type Finding, type Grade, type ScanResult, type SeverityCounts } from '../../common/scan';
import { DIFF_LISTED, SCAN_HISTORY_TEXTS, type DiffFinding, type ScanDiffResponse, type ScanHistoryItem, type ScanTrigger } from '../../common/scan-history';
import type { Suppression } from '../../common/triage';
import { diffScans } from '../../engine/diff';
import { applySuppressions } from '../../engine/triage';
import type { Db } from '../db';
import { reports, scans } from '../db/schema';
import { HttpError } from '../http-errors';
import { cursorTimestampSql, decodeCursor, pageOf } from '../pagination';
import type { ProjectService } from '../projects/service';
import type { ActorLike } from '../workspaces/actor';

type ScanRow = typeof scans.$inferSelect;

interface HistoryRow {
  id: string;
  state: ScanHistoryItem['state'];
  trigger: ScanTrigger;
  queued_at: string;
  finished_at: string | null;
  score: number | null;
  grade: string | null;
  counts: unknown;
  error: string | null;
  report_id: string | null;
  sort_at: string;
}

const iso = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const HISTORY_SQL = `
select s.id, s.state, s.trigger, ${iso('s.queued_at')} as queued_at, ${iso('s.finished_at')} as finished_at, s.score, s.grade, s.counts, s.error,
       r.id as report_id, ${cursorTimestampSql('s.queued_at')} as sort_at
  from scans s
  left join lateral (
    select id from reports where reports.scan_id = s.id and reports.type = 'security' limit 1
  ) r on true
 where s.project_id = $1 and s.workspace_id = $2 __AFTER__
 order by s.queued_at desc, s.id desc
 limit $3`;
const HISTORY_FIRST_SQL = HISTORY_SQL.replace('__AFTER__', '');
const HISTORY_AFTER_SQL = HISTORY_SQL.replace('__AFTER__', 'and (s.queued_at, s.id) < ($4::timestamptz, $5::uuid)');

const fromHistoryRow = (row: HistoryRow): ScanHistoryItem => ({
  id: row.id,
  state: row.state,
  trigger: row.trigger,
  queued_at: row.queued_at,
  finished_at: row.finished_at,
  score: row.score,
  grade: (row.grade as Grade | null) ?? null,
  counts: (row.counts as SeverityCounts | null) ?? null,
  error: row.error,
  report_id: row.report_id,
});

const fromScanRow = (row: ScanRow, reportId: string | null): ScanHistoryItem => ({
  id: row.id,
  state: row.state,
  trigger: row.trigger,
  queued_at: row.queuedAt.toISOString(),
  finished_at: row.finishedAt?.toISOString() ?? null,
  score: row.score,
  grade: (row.grade as Grade | null) ?? null,
  counts: (row.counts as SeverityCounts | null) ?? null,
  error: row.error,
  report_id: reportId,
});

/** Most severe first; findings of one severity keep the scan's order (the sort is stable). */
const listed = (findings: Finding[]): DiffFinding[] =>
  [...findings]
    .sort((a, b) => SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity])
    .slice(0, DIFF_LISTED)
    .map(({ fingerprint, checkId, title, severity, url, detail }) => ({ fingerprint, checkId, title, severity, url, detail }));

export interface ScanHistoryDeps {
  db: Db;
  pool: Pool;
  projects: Pick<ProjectService, 'row'>;
  /** The project's triage decisions in force (absent: none). */
  suppressions?: (projectId: string) => Promise<Suppression[]>;
}

/**
 * A project's scans, newest first, and what changed between two of them. Every query names the project of the
 * caller's workspace: another workspace's project is a 404, a scan of another project is 'Scan not found'.
 */
export class ScanHistoryService {
  constructor(private readonly deps: ScanHistoryDeps) {}

  async list(who: ActorLike, projectId: string, { limit, cursor }: PageQuery): Promise<{ items: ScanHistoryItem[]; next: string | null }> {
    const project = await this.deps.projects.row(who, projectId);
    const after = decodeCursor(cursor);
    const { rows } = await this.deps.pool.query<HistoryRow>(
      after
        ? { name: 'scan_history_after', text: HISTORY_AFTER_SQL, values: [project.id, project.workspaceId, limit + 1, after.at, after.id] }
        : { name: 'scan_history', text: HISTORY_FIRST_SQL, values: [project.id, project.workspaceId, limit + 1] },
    );
    const page = pageOf(rows, limit, (row) => ({ at: row.sort_at, id: row.id }));
    return { items: page.items.map(fromHistoryRow), next: page.next };
  }

  /**
   * What changed from `from` to `to` (both completed scans of the project): `to` defaults to the latest completed
   * scan, `from` to the completed scan before it. Today's triage decisions apply to both, so a decided finding is
   * neither new nor fixed.
   */
  async diff(who: ActorLike, projectId: string, query: { from?: string; to?: string }): Promise<ScanDiffResponse> {
    const project = await this.deps.projects.row(who, projectId);
    const to = query.to ? await this.completed(project.id, query.to, 'to') : await this.latestCompleted(project.id);
    if (!to) throw new HttpError(404, SCAN_HISTORY_TEXTS.noCompleted);
    const from = query.from ? await this.completed(project.id, query.from, 'from') : await this.completedBefore(project.id, to);
    if (from?.id === to.id) throw new HttpError(400, 'from and to must be two different scans');
    const decided = (await this.deps.suppressions?.(project.id)) ?? [];
    const diff = diffScans(from ? findingsOf(from, decided) : undefined, findingsOf(to, decided));
    const reportOf = await this.securityReports([to.id, ...(from ? [from.id] : [])]);
    return {
      from: from ? fromScanRow(from, reportOf.get(from.id) ?? null) : null,
      to: fromScanRow(to, reportOf.get(to.id) ?? null),
      counts: { new: diff.added.length, fixed: diff.fixed.length, unchanged: diff.unchanged.length },
      new: listed(diff.added),
      fixed: listed(diff.fixed),
      unchanged: listed(diff.unchanged),
    };
  }

  /** The security report of each scan that has one. */
  private async securityReports(scanIds: string[]): Promise<Map<string, string>> {
    const rows = await this.deps.db
      .select({ scanId: reports.scanId, id: reports.id })
      .from(reports)
      .where(and(inArray(reports.scanId, scanIds), eq(reports.type, 'security')));
    return new Map(rows.map((row) => [row.scanId!, row.id]));
  }

  /** A completed scan of the project by id: 404 for another project's (or no) scan, 400 for one without results. */
  private async completed(projectId: string, scanId: string, field: 'from' | 'to'): Promise<ScanRow> {
    const [row] = await this.deps.db
      .select()
      .from(scans)
      .where(and(eq(scans.id, scanId), eq(scans.projectId, projectId)));
    if (!row) throw new HttpError(404, SCAN_HISTORY_TEXTS.notFound);
    if (row.state !== 'completed' || !row.result) throw new HttpError(400, SCAN_HISTORY_TEXTS.notCompleted(field));
    return row;
  }

  private async latestCompleted(projectId: string): Promise<ScanRow | undefined> {
    const [row] = await this.deps.db
      .select()
      .from(scans)
      .where(and(eq(scans.projectId, projectId), eq(scans.state, 'completed')))
      .orderBy(desc(scans.finishedAt), desc(scans.id))
      .limit(1);
    return row;
  }

  /** The completed scan that finished last before `scan` (the order the project page's latest diff uses). */
  private async completedBefore(projectId: string, scan: ScanRow): Promise<ScanRow | undefined> {
    if (!scan.finishedAt) return undefined;
    const [row] = await this.deps.db
      .select()
      .from(scans)
      .where(and(eq(scans.projectId, projectId), eq(scans.state, 'completed'), lt(scans.finishedAt, scan.finishedAt)))
      .orderBy(desc(scans.finishedAt), desc(scans.id))
      .limit(1);
    return row;
  }
}

/** A completed scan's findings with today's decisions; a result that no longer parses (an older schema) has none. */
function findingsOf(row: ScanRow, decided: Suppression[]): Pick<ScanResult, 'findings' | 'suppressed'> {
  const parsed = scanResultSchema.safeParse(row.result);
  return parsed.success ? applySuppressions(parsed.data, decided) : { findings: [] };
}
