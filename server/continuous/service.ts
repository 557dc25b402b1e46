import { randomBytes } from 'node:crypto';
import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import { buildChangesSchema, type ContinuousBuild, type ContinuousReportBody } from '../../common/continuous';
import type { PageQuery } from '../../common/pagination';
import type { Db } from '../db';
import { continuousBuilds, projects } from '../db/schema';
import { cursorTimestampSql, decodeCursor, pageOf } from '../pagination';
import { isUuid } from '../projects/service';
import { HttpError } from '../http-errors';

/** The hash of the project's newest build: the current one. */
async function newestHash(db: Pick<Db, 'select'>, projectId: string): Promise<string | undefined> {
  const [newest] = await db
    .select({ buildHash: continuousBuilds.buildHash })
    .from(continuousBuilds)
    .where(eq(continuousBuilds.projectId, projectId))
    .orderBy(desc(continuousBuilds.createdAt), desc(continuousBuilds.id))
    .limit(1);
  return newest?.buildHash;
}

const buildSortAt = sql<string>`${sql.raw(cursorTimestampSql('"continuous_builds"."created_at"'))}`;

/** A new site token: 'vst_' and 24 url-safe random characters (144 bits). */
export function newSiteToken(): string {
  return `vst_${randomBytes(18).toString('base64url')}`;
}

/** 'www.shop.example' and 'shop.example' are one site; hostnames compare without case and a trailing dot. */
export function sameSite(reported: string, projectUrl: string): boolean {
  let expected: string;
  try {
    expected = new URL(projectUrl).hostname;
  } catch {
    return false;
  }
  const bare = (host: string) =>
    host
      .toLowerCase()
      .replace(/\.$/, '')
      .replace(/^www\./, '');
  return bare(reported) === bare(expected);
}

type BuildRow = typeof continuousBuilds.$inferSelect;

export function toBuild(row: BuildRow): ContinuousBuild {
  const changes = row.changes ? buildChangesSchema.safeParse(row.changes) : null;
  return {
    id: row.id,
    project_id: row.projectId,
    build_hash: row.buildHash,
    status: row.status as ContinuousBuild['status'],
    url: row.url,
    timestamp: row.createdAt.toISOString(),
    trigger: row.trigger,
    scan_id: row.scanId,
    changes: changes?.success ? changes.data : null,
    finished_at: row.finishedAt?.toISOString() ?? null,
  };
}

export type ReportOutcome = { changed: true; buildId: string } | { changed: false };

/**
 * Starts the re-scan that judges a new build (and the runs of the project's scenarios). Set by the server once the
 * job queue exists (server/continuous/builds.ts); absent, builds stay 'other'.
 */
export interface BuildStarter {
  start(buildId: string): Promise<void>;
}

/** Site tokens, the monitoring script's reports and the builds they make. */
export class ContinuousService {
  starter?: BuildStarter;

  constructor(private readonly db: Db) {}

  /** The project a report names, checked against the hostname it came from. */
  async projectFor(body: ContinuousReportBody): Promise<typeof projects.$inferSelect> {
    const [project] = await this.db.select().from(projects).where(eq(projects.siteToken, body.site_token));
    if (!project) throw new HttpError(404, 'Unknown site token');
    if (!sameSite(body.hostname, project.url)) throw new HttpError(403, "The hostname does not match the project's URL");
    return project;
  }

  /**
   * Records a build when the hash differs from the project's newest build, and starts its re-scan. The project row
   * is locked so two visitors reporting the same change at once make one build, not two.
   */
  async report(project: typeof projects.$inferSelect, hash: string): Promise<ReportOutcome> {
    const outcome = await this.db.transaction(async (tx) => {
      await tx.select({ id: projects.id }).from(projects).where(eq(projects.id, project.id)).for('update');
      if ((await newestHash(tx, project.id)) === hash) return { changed: false } as const;
      const [row] = await tx
        .insert(continuousBuilds)
        .values({ userId: project.userId, workspaceId: project.workspaceId, projectId: project.id, buildHash: hash, url: project.url, trigger: 'script' })
        .returning({ id: continuousBuilds.id });
      return { changed: true, buildId: row!.id } as const;
    });
    if (outcome.changed) await this.starter?.start(outcome.buildId);
    return outcome;
  }

  /**
   * A build made by the project's schedule: the content is not known to have changed, so it carries the current
   * hash (or '00000000' before the first report) and the next report of that hash still counts as unchanged.
   */
  async scheduledBuild(project: Pick<typeof projects.$inferSelect, 'id' | 'userId' | 'workspaceId' | 'url'>): Promise<string> {
    const hash = (await newestHash(this.db, project.id)) ?? '00000000';
    const [row] = await this.db
      .insert(continuousBuilds)
      .values({ userId: project.userId, workspaceId: project.workspaceId, projectId: project.id, buildHash: hash, url: project.url, trigger: 'schedule' })
      .returning({ id: continuousBuilds.id });
    await this.starter?.start(row!.id);
    return row!.id;
  }

  /** The workspace's builds, newest first; one project's only when `projectId` is given. */
  async list(workspaceId: string, { limit, cursor }: PageQuery, projectId?: string): Promise<{ items: ContinuousBuild[]; next: string | null }> {
    const after = decodeCursor(cursor);
    const conditions: SQL[] = [eq(continuousBuilds.workspaceId, workspaceId)];
    if (projectId !== undefined) {
      if (!isUuid(projectId)) return { items: [], next: null };
      conditions.push(eq(continuousBuilds.projectId, projectId));
    }
    if (after) conditions.push(sql`(${continuousBuilds.createdAt}, ${continuousBuilds.id}) < (${after.at}::timestamptz, ${after.id}::uuid)`);
    const rows = await this.db
      .select({ row: continuousBuilds, sortAt: buildSortAt })
      .from(continuousBuilds)
      .where(and(...conditions))
      .orderBy(desc(continuousBuilds.createdAt), desc(continuousBuilds.id))
      .limit(limit + 1);
    const page = pageOf(rows, limit, ({ row, sortAt }) => ({ at: sortAt, id: row.id }));
    return { items: page.items.map(({ row }) => toBuild(row)), next: page.next };
  }

  /** Gives the workspace's project a new site token; pages still carrying the old one are refused from now on. */
  async rotateSiteToken(workspaceId: string, projectId: string): Promise<string> {
    if (!isUuid(projectId)) throw new HttpError(404, 'Project not found');
    const token = newSiteToken();
    const [row] = await this.db
      .update(projects)
      .set({ siteToken: token, updatedAt: new Date() })
      .where(and(eq(projects.id, projectId), eq(projects.workspaceId, workspaceId)))
      .returning({ id: projects.id });
    if (!row) throw new HttpError(404, 'Project not found');
    return token;
  }
}
