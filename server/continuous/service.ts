import { randomBytes } from 'node:crypto';
import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { ContinuousBuild, ContinuousReportBody } from '../../common/continuous';
import type { PageQuery } from '../../common/pagination';
import type { Db } from '../db';
import { continuousBuilds, projects } from '../db/schema';
import { cursorTimestampSql, decodeCursor, pageOf } from '../pagination';
import { isUuid, ProjectError } from '../projects/service';

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
  const bare = (host: string) => host.toLowerCase().replace(/\.$/, '').replace(/^www\./, '');
  return bare(reported) === bare(expected);
}

type BuildRow = typeof continuousBuilds.$inferSelect;

function toBuild(row: BuildRow): ContinuousBuild {
  return {
    id: row.id,
    project_id: row.projectId,
    build_hash: row.buildHash,
    status: row.status as ContinuousBuild['status'],
    url: row.url,
    timestamp: row.createdAt.toISOString(),
  };
}

export type ReportOutcome = { changed: true; buildId: string } | { changed: false };

/** Site tokens, the monitoring script's reports and the builds they make. */
export class ContinuousService {
  constructor(private readonly db: Db) {}

  /** The project a report names, checked against the hostname it came from. */
  async projectFor(body: ContinuousReportBody): Promise<typeof projects.$inferSelect> {
    const [project] = await this.db.select().from(projects).where(eq(projects.siteToken, body.site_token));
    if (!project) throw new ProjectError(404, 'Unknown site token');
    if (!sameSite(body.hostname, project.url)) throw new ProjectError(403, "The hostname does not match the project's URL");
    return project;
  }

  /**
   * Records a build when the hash differs from the project's newest build. The project row is locked so two
   * visitors reporting the same change at once make one build, not two.
   */
  async report(project: typeof projects.$inferSelect, hash: string): Promise<ReportOutcome> {
    return this.db.transaction(async (tx) => {
      await tx.select({ id: projects.id }).from(projects).where(eq(projects.id, project.id)).for('update');
      const [newest] = await tx
        .select({ buildHash: continuousBuilds.buildHash })
        .from(continuousBuilds)
        .where(eq(continuousBuilds.projectId, project.id))
        .orderBy(desc(continuousBuilds.createdAt), desc(continuousBuilds.id))
        .limit(1);
      if (newest?.buildHash === hash) return { changed: false } as const;
      const [row] = await tx
        .insert(continuousBuilds)
        .values({ userId: project.userId, projectId: project.id, buildHash: hash, url: project.url })
        .returning({ id: continuousBuilds.id });
      return { changed: true, buildId: row!.id } as const;
    });
  }

  /** The user's builds, newest first. */
  async list(userId: string, { limit, cursor }: PageQuery): Promise<{ items: ContinuousBuild[]; next: string | null }> {
    const after = decodeCursor(cursor);
    const conditions: SQL[] = [eq(continuousBuilds.userId, userId)];
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

  /** Gives the user's project a new site token; pages still carrying the old one are refused from now on. */
  async rotateSiteToken(userId: string, projectId: string): Promise<string> {
    if (!isUuid(projectId)) throw new ProjectError(404, 'Project not found');
    const token = newSiteToken();
    const [row] = await this.db
      .update(projects)
      .set({ siteToken: token, updatedAt: new Date() })
      .where(and(eq(projects.id, projectId), eq(projects.userId, userId)))
      .returning({ id: projects.id });
    if (!row) throw new ProjectError(404, 'Project not found');
    return token;
  }
}
