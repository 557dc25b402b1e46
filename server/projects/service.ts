import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { createProjectBodySchema, Project, ScanSummary, updateProjectBodySchema } from '../../common/projects';
import type { Grade, ScanProgress, SeverityCounts } from '../../common/scan';
import type { Db } from '../db';
import { projects, reports, scans } from '../db/schema';
import type { Sealer } from './sealed';

type ProjectRow = typeof projects.$inferSelect;
type ScanRow = typeof scans.$inferSelect;

/** A known failure the routes turn into an HTTP status with a `detail`. */
export class ProjectError extends Error {
  constructor(
    /** The HTTP status the API answers with (the guarded scope's error handler reads statusCode). */
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
  }
}

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
};

/** Projects of one user. Every query is filtered by the user's id: another user's project does not exist (404). */
export class ProjectService {
  constructor(
    private readonly db: Db,
    private readonly sealer: Sealer,
  ) {}

  private toProject(row: ProjectRow, latest: ScanSummary | null): Project {
    let secret: string | null = null;
    if (row.secretInstructionSealed) {
      try {
        secret = this.sealer.open(row.secretInstructionSealed);
      } catch {
        secret = null; // sealed under another install's key (a restored dump): unreadable, not fatal
      }
    }
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

  async list(userId: string): Promise<Project[]> {
    const rows = await this.db.select().from(projects).where(eq(projects.userId, userId)).orderBy(desc(projects.createdAt));
    const latest = await this.latestScans(rows.map((row) => row.id));
    return rows.map((row) => this.toProject(row, latest.get(row.id) ?? null));
  }

  async row(userId: string, id: string): Promise<ProjectRow> {
    if (!isUuid(id)) throw new ProjectError(404, 'Project not found');
    const [row] = await this.db
      .select()
      .from(projects)
      .where(and(eq(projects.id, id), eq(projects.userId, userId)));
    if (!row) throw new ProjectError(404, 'Project not found');
    return row;
  }

  async get(userId: string, id: string): Promise<Project> {
    const row = await this.row(userId, id);
    const latest = await this.latestScans([row.id]);
    return this.toProject(row, latest.get(row.id) ?? null);
  }

  async create(userId: string, body: z.output<typeof createProjectBodySchema>): Promise<Project> {
    const [row] = await this.db
      .insert(projects)
      .values({
        userId,
        url: body.url,
        status: body.status,
        instructionText: body.instruction_text ?? null,
        secretInstructionSealed: body.secret_instruction ? this.sealer.seal(body.secret_instruction) : null,
        numPages: body.num_pages,
      })
      .returning();
    return this.toProject(row!, null);
  }

  async update(userId: string, id: string, body: z.output<typeof updateProjectBodySchema>): Promise<Project> {
    await this.row(userId, id);
    const changes: Partial<typeof projects.$inferInsert> = { updatedAt: new Date() };
    if (body.url !== undefined) changes.url = body.url;
    if (body.status !== undefined) changes.status = body.status;
    if (body.instruction_text !== undefined) changes.instructionText = body.instruction_text;
    if (body.secret_instruction !== undefined) changes.secretInstructionSealed = body.secret_instruction ? this.sealer.seal(body.secret_instruction) : null;
    if (body.num_pages !== undefined) changes.numPages = body.num_pages;
    if (body.last_test !== undefined) changes.lastTest = body.last_test ? new Date(body.last_test) : null;
    await this.db
      .update(projects)
      .set(changes)
      .where(and(eq(projects.id, id), eq(projects.userId, userId)));
    return this.get(userId, id);
  }

  async remove(userId: string, id: string): Promise<void> {
    await this.row(userId, id);
    await this.db.delete(projects).where(and(eq(projects.id, id), eq(projects.userId, userId)));
  }

  /**
   * Queues a scan of the project's site. The partial unique index on scans allows one queued or running scan per
   * project, so two presses (or two server instances) cannot start two scans.
   */
  async queueScan(userId: string, id: string): Promise<ScanRow> {
    const project = await this.row(userId, id);
    try {
      const [scan] = await this.db
        .insert(scans)
        .values({ projectId: project.id, userId, url: project.url, numPages: project.numPages })
        .returning();
      await this.db.update(projects).set({ lastTest: sql`now()` }).where(eq(projects.id, project.id));
      return scan!;
    } catch (error) {
      if ((error as { code?: string; cause?: { code?: string } }).code === '23505' || (error as { cause?: { code?: string } }).cause?.code === '23505') {
        throw new ProjectError(409, 'A test of this project is already running.');
      }
      throw error;
    }
  }

  /** The two latest completed scans and the latest scan of any state, for the detail view. */
  async scansForView(userId: string, id: string): Promise<{ latest: ScanRow | undefined; completed: ScanRow[]; reportId: string | null }> {
    const project = await this.row(userId, id);
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
