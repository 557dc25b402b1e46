import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { PageQuery } from '../../common/pagination';
import { RECHECK_LIMITS, RECHECK_TEXTS, type Recheck } from '../../common/rechecks';
import { fingerprintSchema } from '../../common/triage';
import type { Db } from '../db';
import { findingRechecks } from '../db/schema';
import { HttpError } from '../http-errors';
import { cursorTimestampSql, decodeCursor, pageOf } from '../pagination';
import { isUuid, type ProjectService } from '../projects/service';
import { latestCompletedResult } from '../triage/service';
import { actorOf, type ActorLike } from '../workspaces/actor';

export type RecheckRow = typeof findingRechecks.$inferSelect;

export interface RecheckDeps {
  db: Db;
  projects: Pick<ProjectService, 'row'>;
  /** Sends the check again's job (server/jobs/queue.ts); a lost send is sent again by the queue's reaper. */
  enqueue: (recheckId: string) => Promise<void>;
  logger: Logger;
}

export const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** A row as the API says it. */
export function toRecheck(row: RecheckRow): Recheck {
  const finished = row.state === 'completed' || row.state === 'failed';
  return {
    id: row.id,
    fingerprint: row.fingerprint,
    title: row.title,
    url: row.url,
    state: row.state,
    status: row.status ?? null,
    reason: row.reason,
    error: row.error,
    created_at: row.createdAt.toISOString(),
    checked_at: finished ? (row.finishedAt ?? row.createdAt).toISOString() : null,
    duration_ms: row.durationMs,
  };
}

const ACTIVE = ['queued', 'running'] as const;

/**
 * 'Check again': one finding of a project's latest completed scan, its check queued to run again against the site
 * (server/rechecks/job.ts). The database keeps one queued or running check again per finding: a second press, here
 * or on another server of the team, answers the first. Every query names the caller's workspace and project.
 */
export class RecheckService {
  constructor(private readonly deps: RecheckDeps) {}

  /** Queues a check again of the finding (or answers the one already queued or running). */
  async start(who: ActorLike, projectId: string, fingerprint: string): Promise<Recheck> {
    const { db } = this.deps;
    const project = await this.deps.projects.row(who, projectId);
    const key = fingerprintSchema.safeParse(fingerprint);
    if (!key.success) throw new HttpError(404, RECHECK_TEXTS.findingNotFound);
    const latest = await latestCompletedResult(db, project.id);
    if (!latest) throw new HttpError(409, RECHECK_TEXTS.noScan);
    const { result } = latest;
    const finding = result.findings.find((f) => f.fingerprint === key.data) ?? result.suppressed?.find((f) => f.fingerprint === key.data);
    if (!finding) throw new HttpError(404, RECHECK_TEXTS.findingNotFound);
    const { userId, workspaceId } = actorOf(who);
    const values = {
      workspaceId,
      userId,
      projectId: project.id,
      scanId: latest.id,
      fingerprint: finding.fingerprint,
      checkId: finding.checkId,
      title: cut(finding.title, RECHECK_LIMITS.title),
      url: cut(finding.url, RECHECK_LIMITS.url),
      active: result.options.active,
    };
    // The partial unique index refuses a second active row for the finding; the one that is there is the answer.
    // It may finish between the two statements: then a new one is queued (a few tries, then the last one found).
    for (let attempt = 0; attempt < 3; attempt++) {
      const [made] = await db.insert(findingRechecks).values(values).onConflictDoNothing().returning();
      if (made) {
        await this.deps.enqueue(made.id).catch((error: Error) => this.deps.logger.warn({ err: error, recheck: made.id }, 'check again not sent: the reaper sends it'));
        return toRecheck(made);
      }
      const [active] = await db
        .select()
        .from(findingRechecks)
        .where(and(eq(findingRechecks.projectId, project.id), eq(findingRechecks.fingerprint, finding.fingerprint), inArray(findingRechecks.state, [...ACTIVE])));
      if (active) return toRecheck(active);
    }
    throw new HttpError(409, 'This finding is being checked again: try again in a moment.');
  }

  /** One check again of the project, as it stands. */
  async get(who: ActorLike, projectId: string, recheckId: string): Promise<Recheck> {
    const project = await this.deps.projects.row(who, projectId);
    if (!isUuid(recheckId)) throw new HttpError(404, RECHECK_TEXTS.notFound);
    const [row] = await this.deps.db
      .select()
      .from(findingRechecks)
      .where(and(eq(findingRechecks.id, recheckId), eq(findingRechecks.projectId, project.id), eq(findingRechecks.workspaceId, project.workspaceId)));
    if (!row) throw new HttpError(404, RECHECK_TEXTS.notFound);
    return toRecheck(row);
  }

  /** The project's completed checks again, newest first (its History). */
  async list(who: ActorLike, projectId: string, { limit, cursor }: PageQuery): Promise<{ items: Recheck[]; next: string | null }> {
    const project = await this.deps.projects.row(who, projectId);
    const after = decodeCursor(cursor);
    const t = findingRechecks;
    const rows = await this.deps.db
      .select({ row: t, sortAt: sql<string>`${sql.raw(cursorTimestampSql('"finding_rechecks"."created_at"'))}` })
      .from(t)
      .where(
        and(
          eq(t.projectId, project.id),
          eq(t.workspaceId, project.workspaceId),
          eq(t.state, 'completed'),
          after ? sql`(${t.createdAt}, ${t.id}) < (${after.at}::timestamptz, ${after.id}::uuid)` : undefined,
        ),
      )
      .orderBy(desc(t.createdAt), desc(t.id))
      .limit(limit + 1);
    const page = pageOf(rows, limit, ({ row, sortAt }) => ({ at: sortAt, id: row.id }));
    return { items: page.items.map(({ row }) => toRecheck(row)), next: page.next };
  }
}
