import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { createProjectBodySchema, Project, ScanSummary, updateProjectBodySchema } from '../../common/projects';
import type { Grade, ScanProgress, SeverityCounts } from '../../common/scan';
import type { ScanTrigger } from '../../common/scan-history';
import type { Pool } from 'pg';
import { urlRefusal } from '../../engine/retrieval/address-policy';
import type { AddressPolicy } from '../../engine/scan';
import type { Db } from '../db';
import { projects, reports, scans } from '../db/schema';
import type { PageQuery } from '../../common/pagination';
import { cursorTimestampSql, decodeCursor, pageOf } from '../pagination';
import type { Sealer } from './sealed';
import type { PlanGate } from '../billing/plan-gate';
import { insertWithinPlan } from '../billing/plan-room';
import { actorOf, type ActorLike } from '../workspaces/actor';
import { HttpError } from '../http-errors';

type ProjectRow = typeof projects.$inferSelect;
type ScanRow = typeof scans.$inferSelect;

export function toScanSummary(row: ScanRow, reportId: string | null = null): ScanSummary {
  return {
    id: row.id,
    state: row.state,
    queued_at: row.queuedAt.toISOString(),
    started_at: row.startedAt?.toISOString() ?? null,
    finished_at: row.finishedAt?.toISOString() ?? null,
    progress: (row.progress as ScanProgress | null) ?? null,
    score: row.score,
    grade: (row.grade as Grade | null) ?? null,
    header_grade: (row.headerGrade as Grade | null) ?? null,
    counts: (row.counts as SeverityCounts | null) ?? null,
    error: row.error,
    report_id: reportId,
  };
}

/** The columns of a scan row the project views need: everything but the (large) result. */
const summaryColumns = {
  id: scans.id,
  projectId: scans.projectId,
  userId: scans.userId,
  workspaceId: scans.workspaceId,
  state: scans.state,
  url: scans.url,
  numPages: scans.numPages,
  progress: scans.progress,
  score: scans.score,
  grade: scans.grade,
  headerGrade: scans.headerGrade,
  counts: scans.counts,
  error: scans.error,
  attempts: scans.attempts,
  queuedAt: scans.queuedAt,
  startedAt: scans.startedAt,
  finishedAt: scans.finishedAt,
  heartbeatAt: scans.heartbeatAt,
  checkStrikes: scans.checkStrikes,
  checksStartedAt: scans.checksStartedAt,
  active: scans.active,
  trigger: scans.trigger,
};

interface ListRow {
  id: string;
  url: string;
  status: string;
  instruction_text: string | null;
  secret_instruction_sealed: string | null;
  num_pages: number;
  /** Timestamps arrive as ISO text (to_char in UTC): no Date parsing on the hot path. */
  created_at: string;
  last_test: string | null;
  scan_id: string | null;
  scan_state: string | null;
  scan_queued_at: string | null;
  scan_started_at: string | null;
  scan_finished_at: string | null;
  scan_progress: unknown;
  scan_score: number | null;
  scan_grade: string | null;
  scan_header_grade: string | null;
  scan_counts: unknown;
  scan_error: string | null;
  report_id: string | null;
  sort_at: string;
}

const LIST_SQL = `
select p.id, p.url, p.status, p.instruction_text, p.secret_instruction_sealed, p.num_pages,
       to_char(p.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at, to_char(p.last_test at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as last_test,
       s.id as scan_id, s.state as scan_state, to_char(s.queued_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as scan_queued_at,
       to_char(s.started_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as scan_started_at, to_char(s.finished_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as scan_finished_at, s.progress as scan_progress, s.score as scan_score, s.grade as scan_grade,
       s.header_grade as scan_header_grade, s.counts as scan_counts, s.error as scan_error, r.id as report_id,
       ${cursorTimestampSql('p.created_at')} as sort_at
  from projects p
  left join lateral (
    select id, state, queued_at, started_at, finished_at, progress, score, grade, header_grade, counts, error
      from scans where scans.project_id = p.id order by queued_at desc limit 1
  ) s on true
  left join lateral (
    select id from reports where reports.scan_id = s.id and reports.type = 'security' limit 1
  ) r on true
 where p.workspace_id = $1 __AFTER__
 order by p.created_at desc, p.id desc
 limit $2`;

/** The first page, and a page after a cursor (two statements, so each keeps a plan that uses the index). */
const LIST_FIRST_SQL = LIST_SQL.replace('__AFTER__', '');
const LIST_AFTER_SQL = LIST_SQL.replace('__AFTER__', 'and (p.created_at, p.id) < ($3::timestamptz, $4::uuid)');

/**
 * How long creating a project waits for the address policy's DNS answer. Past it the URL is accepted: the check at
 * creation only spares the user a scan bound to fail; the scan itself checks every address it connects to.
 */
const POLICY_LOOKUP_MS = 3000;

/**
 * Projects of one workspace. Every query is filtered by the workspace's id: another workspace's project does not
 * exist (404). Records made here name the acting member as their user.
 */
export class ProjectService {
  constructor(
    private readonly db: Db,
    private readonly pool: Pool,
    private readonly sealer: Sealer,
    /** The scanner's address policy: a project's URL must be one its scans may reach. */
    private readonly policy: AddressPolicy,
    /** The plan's project limit (the server's; workers create no projects and pass none). */
    private readonly plan?: PlanGate,
  ) {}

  /** Refuses a URL the scanner's address policy refuses (server mode: private and loopback hosts), with its reason. */
  private async assertScannable(url: string): Promise<void> {
    if (this.policy.allowPrivate) return;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), POLICY_LOOKUP_MS)));
    const refusal = await Promise.race([urlRefusal(this.policy, url, new Map()), timeout]).finally(() => clearTimeout(timer));
    if (refusal) throw new HttpError(400, refusal);
  }

  private openSecret(sealed: string | null): string | null {
    if (!sealed) return null;
    try {
      return this.sealer.open(sealed);
    } catch {
      return null; // sealed under another install's key (a restored dump): unreadable, not fatal
    }
  }

  private toProject(row: ProjectRow, latest: ScanSummary | null): Project {
    const secret = this.openSecret(row.secretInstructionSealed);
    return {
      id: row.id,
      url: row.url,
      status: row.status,
      instruction_text: row.instructionText,
      secret_instruction: secret,
      num_pages: row.numPages,
      creation_date: row.createdAt.toISOString(),
      last_test: row.lastTest?.toISOString() ?? null,
      latest_scan: latest,
    };
  }

  /** The latest scan of each project, with the id of its security report. */
  private async latestScans(projectIds: string[]): Promise<Map<string, ScanSummary>> {
    if (projectIds.length === 0) return new Map();
    const rows = await this.db
      .selectDistinctOn([scans.projectId], { ...summaryColumns, reportId: reports.id })
      .from(scans)
      .leftJoin(reports, and(eq(reports.scanId, scans.id), eq(reports.type, 'security')))
      .where(inArray(scans.projectId, projectIds))
      .orderBy(scans.projectId, desc(scans.queuedAt));
    return new Map(rows.map((row) => [row.projectId, toScanSummary({ ...row, result: null }, row.reportId)]));
  }

  /**
   * The dashboard's most frequent call: one prepared statement (planned once per connection) that brings each
   * project with its latest scan and that scan's security report.
   */
  async list(who: ActorLike, { limit, cursor }: PageQuery): Promise<{ items: Project[]; next: string | null }> {
    const { workspaceId } = actorOf(who);
    const after = decodeCursor(cursor);
    const { rows } = await this.pool.query<ListRow>(
      after
        ? { name: 'projects_list_after', text: LIST_AFTER_SQL, values: [workspaceId, limit + 1, after.at, after.id] }
        : { name: 'projects_list', text: LIST_FIRST_SQL, values: [workspaceId, limit + 1] },
    );
    const page = pageOf(rows, limit, (row) => ({ at: row.sort_at, id: row.id }));
    return { items: page.items.map((row) => this.fromListRow(row)), next: page.next };
  }

  private fromListRow(row: ListRow): Project {
    return {
      id: row.id,
      url: row.url,
      status: row.status,
      instruction_text: row.instruction_text,
      secret_instruction: this.openSecret(row.secret_instruction_sealed),
      num_pages: row.num_pages,
      creation_date: row.created_at,
      last_test: row.last_test,
      latest_scan: row.scan_id
        ? {
            id: row.scan_id,
            state: row.scan_state as ScanSummary['state'],
            queued_at: row.scan_queued_at!,
            started_at: row.scan_started_at,
            finished_at: row.scan_finished_at,
            progress: (row.scan_progress as ScanProgress | null) ?? null,
            score: row.scan_score,
            grade: (row.scan_grade as Grade | null) ?? null,
            header_grade: (row.scan_header_grade as Grade | null) ?? null,
            counts: (row.scan_counts as SeverityCounts | null) ?? null,
            error: row.scan_error,
            report_id: row.report_id,
          }
        : null,
    };
  }

  async row(who: ActorLike, id: string): Promise<ProjectRow> {
    if (!isUuid(id)) throw new HttpError(404, 'Project not found');
    const [row] = await this.db
      .select()
      .from(projects)
      .where(and(eq(projects.id, id), eq(projects.workspaceId, actorOf(who).workspaceId)));
    if (!row) throw new HttpError(404, 'Project not found');
    return row;
  }

  async get(who: ActorLike, id: string): Promise<Project> {
    const row = await this.row(who, id);
    const latest = await this.latestScans([row.id]);
    return {
      ...this.toProject(row, latest.get(row.id) ?? null),
      site_token: row.siteToken,
      active_mode: row.activeMode,
      permission_confirmed_at: row.permissionConfirmedAt?.toISOString() ?? null,
    };
  }

  async create(who: ActorLike, body: z.output<typeof createProjectBodySchema>): Promise<Project> {
    const { workspaceId, userId } = actorOf(who);
    await this.assertScannable(body.url);
    const values = {
      userId,
      workspaceId,
      url: body.url,
      status: body.status,
      instructionText: body.instruction_text ?? null,
      secretInstructionSealed: body.secret_instruction ? this.sealer.seal(body.secret_instruction) : null,
      numPages: body.num_pages,
    };
    // Every way of creating a project (dashboard, /v1, MCP) comes through here, so the plan's limit holds for all.
    const [row] = await insertWithinPlan(this.db, this.plan, workspaceId, 'projects', (tx) => tx.insert(projects).values(values).returning());
    return this.toProject(row!, null);
  }

  async update(who: ActorLike, id: string, body: z.output<typeof updateProjectBodySchema>): Promise<Project> {
    const row = await this.row(who, id);
    if (body.url !== undefined) await this.assertScannable(body.url);
    const changes: Partial<typeof projects.$inferInsert> = { updatedAt: new Date() };
    if (body.url !== undefined) changes.url = body.url;
    if (body.status !== undefined) changes.status = body.status;
    if (body.instruction_text !== undefined) changes.instructionText = body.instruction_text;
    if (body.secret_instruction !== undefined) changes.secretInstructionSealed = body.secret_instruction ? this.sealer.seal(body.secret_instruction) : null;
    if (body.num_pages !== undefined) changes.numPages = body.num_pages;
    if (body.last_test !== undefined) changes.lastTest = body.last_test ? new Date(body.last_test) : null;
    if (body.active_mode !== undefined) changes.activeMode = body.active_mode;
    // The first confirmation's time stays: it is when permission was first stated.
    if (body.permission_confirmed) changes.permissionConfirmedAt = row.permissionConfirmedAt ?? new Date();
    await this.db
      .update(projects)
      .set(changes)
      .where(and(eq(projects.id, row.id), eq(projects.workspaceId, row.workspaceId)));
    return this.get(who, id);
  }

  async remove(who: ActorLike, id: string): Promise<void> {
    const row = await this.row(who, id);
    await this.db.delete(projects).where(and(eq(projects.id, row.id), eq(projects.workspaceId, row.workspaceId)));
  }

  /**
   * Queues a scan of the project's site. The partial unique index on scans allows one queued or running scan per
   * project, so two presses (or two server instances) cannot start two scans.
   */
  /**
   * `trigger`: what asked for the scan, kept for the project's history. `active`: run in active mode (the API's
   * options.active); the project's active mode when absent. The job still gates it.
   */
  async queueScan(who: ActorLike, id: string, trigger: ScanTrigger, { active }: { active?: boolean } = {}): Promise<ScanRow> {
    const project = await this.row(who, id);
    const [scan] = await this.db
      .insert(scans)
      .values({
        projectId: project.id,
        userId: actorOf(who).userId,
        workspaceId: project.workspaceId,
        url: project.url,
        numPages: project.numPages,
        active: active ?? project.activeMode,
        trigger,
      })
      .onConflictDoNothing({ target: scans.projectId, where: sql`state in ('queued', 'running')` })
      .returning();
    if (!scan) throw new HttpError(409, 'A test of this project is already running.');
    await this.db
      .update(projects)
      .set({ lastTest: sql`now()` })
      .where(eq(projects.id, project.id));
    return scan;
  }

  /** The two latest completed scans and the latest scan of any state, for the detail view. */
  async scansForView(who: ActorLike, id: string): Promise<{ latest: ScanRow | undefined; completed: ScanRow[]; reportId: string | null }> {
    const project = await this.row(who, id);
    const [latest] = await this.db.select().from(scans).where(eq(scans.projectId, project.id)).orderBy(desc(scans.queuedAt)).limit(1);
    const completed = await this.db
      .select()
      .from(scans)
      .where(and(eq(scans.projectId, project.id), eq(scans.state, 'completed')))
      .orderBy(desc(scans.finishedAt))
      .limit(2);
    let reportId: string | null = null;
    if (latest) {
      const [report] = await this.db
        .select({ id: reports.id })
        .from(reports)
        .where(and(eq(reports.scanId, latest.id), eq(reports.type, 'security')))
        .limit(1);
      reportId = report?.id ?? null;
    }
    return { latest, completed, reportId };
  }
}

export function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}
