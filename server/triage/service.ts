import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { PageQuery } from '../../common/pagination';
import {
  activeSuppressions,
  fingerprintSchema,
  MAX_DECISIONS_PER_PROJECT,
  TRIAGE_TEXTS,
  type BaselineEntry,
  type Decision,
  type DecisionKind,
  type Suppression,
} from '../../common/triage';
import type { Db } from '../db';
import { scanResultSchema, type ScanResult } from '../../common/scan';
import { applySuppressions } from '../../engine/triage';
import { findingDecisions, scans, users } from '../db/schema';
import { cursorTimestampSql, decodeCursor, pageOf } from '../pagination';
import type { ProjectService } from '../projects/service';
import { actorOf, type ActorLike } from '../workspaces/actor';
import { HttpError } from '../http-errors';

type DecisionRow = typeof findingDecisions.$inferSelect;

const sortAt = sql<string>`${sql.raw(cursorTimestampSql('"finding_decisions"."decided_at"'))}`;

function toDecision(row: DecisionRow, email: string | null, now = Date.now()): Decision {
  return {
    fingerprint: row.fingerprint,
    decision: row.decision as DecisionKind,
    reason: row.reason,
    expires_at: row.expiresAt?.toISOString() ?? null,
    decided_by: { id: row.decidedBy, email },
    decided_at: row.decidedAt.toISOString(),
    active: !row.expiresAt || row.expiresAt.getTime() > now,
  };
}

/** What a request sets: the body after its schema (the expiry already an ISO instant in the future). */
export interface DecisionInput {
  decision: DecisionKind;
  reason: string;
  expires_at?: string | null;
}

/**
 * The decisions of a workspace's projects. Each call first finds the project within the caller's workspace, so a
 * project the caller cannot see answers 404 'Project not found', as every project route does.
 */
export class TriageService {
  constructor(
    private readonly db: Db,
    private readonly projects: Pick<ProjectService, 'row'>,
  ) {}

  /** One page of the project's decisions, the latest first, expired ones included (marked inactive). */
  async list(who: ActorLike, projectId: string, { limit, cursor }: PageQuery): Promise<{ items: Decision[]; next: string | null }> {
    const project = await this.projects.row(who, projectId);
    const after = decodeCursor(cursor);
    const conditions: SQL[] = [eq(findingDecisions.projectId, project.id), eq(findingDecisions.workspaceId, project.workspaceId)];
    if (after) conditions.push(sql`(${findingDecisions.decidedAt}, ${findingDecisions.id}) < (${after.at}::timestamptz, ${after.id}::uuid)`);
    const rows = await this.db
      .select({ row: findingDecisions, email: users.email, sortAt })
      .from(findingDecisions)
      .leftJoin(users, eq(users.id, findingDecisions.decidedBy))
      .where(and(...conditions))
      .orderBy(desc(findingDecisions.decidedAt), desc(findingDecisions.id))
      .limit(limit + 1);
    const page = pageOf(rows, limit, (entry) => ({ at: entry.sortAt, id: entry.row.id }));
    const now = Date.now();
    return { items: page.items.map(({ row, email }) => toDecision(row, email, now)), next: page.next };
  }

  /** Sets (or replaces) the decision on a fingerprint; the deciding member and the time are this request's. */
  async set(who: ActorLike, projectId: string, fingerprint: string, input: DecisionInput): Promise<Decision> {
    const { userId } = actorOf(who);
    const project = await this.projects.row(who, projectId);
    const key = this.fingerprint(fingerprint);
    const [{ value: held } = { value: 0 }] = await this.db
      .select({ value: count() })
      .from(findingDecisions)
      .where(and(eq(findingDecisions.projectId, project.id), sql`${findingDecisions.fingerprint} <> ${key}`));
    if (held >= MAX_DECISIONS_PER_PROJECT) throw new HttpError(409, TRIAGE_TEXTS.tooMany);
    const values = { decision: input.decision, reason: input.reason, expiresAt: input.expires_at ? new Date(input.expires_at) : null, decidedBy: userId };
    const [row] = await this.db
      .insert(findingDecisions)
      .values({ workspaceId: project.workspaceId, projectId: project.id, fingerprint: key, ...values })
      .onConflictDoUpdate({ target: [findingDecisions.projectId, findingDecisions.fingerprint], set: { ...values, decidedAt: sql`now()` } })
      .returning();
    await restateLatestScan(this.db, project.id);
    const [user] = await this.db.select({ email: users.email }).from(users).where(eq(users.id, userId));
    return toDecision(row!, user?.email ?? null);
  }

  /** Reopens a finding: its decision is deleted, and the finding counts again from the next scan's numbers. */
  async reopen(who: ActorLike, projectId: string, fingerprint: string): Promise<void> {
    const project = await this.projects.row(who, projectId);
    const parsed = fingerprintSchema.safeParse(fingerprint);
    if (!parsed.success) throw new HttpError(404, TRIAGE_TEXTS.notFound);
    const deleted = await this.db
      .delete(findingDecisions)
      .where(and(eq(findingDecisions.projectId, project.id), eq(findingDecisions.fingerprint, parsed.data)))
      .returning({ id: findingDecisions.id });
    if (deleted.length === 0) throw new HttpError(404, TRIAGE_TEXTS.notFound);
    await restateLatestScan(this.db, project.id);
  }

  /** The project's decisions still in force, in the baseline file's format (oldest first, so a file diffs well). */
  async baseline(who: ActorLike, projectId: string, { limit }: Pick<PageQuery, 'limit'>): Promise<BaselineEntry[]> {
    const project = await this.projects.row(who, projectId);
    return (await suppressionsOf(this.db, project.id, limit)).map(({ fingerprint, decision, reason, expires_at }) => ({
      fingerprint,
      decision,
      reason,
      expires_at: expires_at ?? null,
    }));
  }

  private fingerprint(value: string): string {
    const parsed = fingerprintSchema.safeParse(value);
    if (!parsed.success) throw new HttpError(400, TRIAGE_TEXTS.fingerprintInvalid);
    return parsed.data;
  }
}

/** The decisions in force for a project (unexpired), for the scan job and reports: the engine's suppressions. */
export async function suppressionsOf(db: Db, projectId: string, limit = MAX_DECISIONS_PER_PROJECT): Promise<Suppression[]> {
  const rows = await db
    .select()
    .from(findingDecisions)
    .where(and(eq(findingDecisions.projectId, projectId), sql`(${findingDecisions.expiresAt} is null or ${findingDecisions.expiresAt} > now())`))
    .orderBy(findingDecisions.decidedAt, findingDecisions.id)
    .limit(limit);
  return activeSuppressions(
    rows.map((row) => ({ fingerprint: row.fingerprint, decision: row.decision as DecisionKind, reason: row.reason, expires_at: row.expiresAt?.toISOString() ?? null })),
  );
}

/**
 * The project's latest completed scan with today's decisions applied: its score, grade and counts (what the project
 * card, the header and the API show) follow a decision at once instead of at the next scan. Earlier scans keep the
 * numbers they had. The stored result keeps every finding (decided ones under `suppressed`), so this is reversible.
 */
export async function restateLatestScan(db: Db, projectId: string): Promise<void> {
  const latest = await latestCompletedResult(db, projectId);
  if (!latest) return;
  const result = applySuppressions(latest.result, await suppressionsOf(db, projectId));
  if (result === latest.result) return;
  await db.update(scans).set({ result, score: result.score, grade: result.grade, counts: result.counts }).where(eq(scans.id, latest.id));
}

/** The project's latest completed scan and its stored result; undefined when it has none (or it does not parse). */
export async function latestCompletedResult(db: Db, projectId: string): Promise<{ id: string; result: ScanResult } | undefined> {
  const [latest] = await db
    .select({ id: scans.id, result: scans.result })
    .from(scans)
    .where(and(eq(scans.projectId, projectId), eq(scans.state, 'completed')))
    .orderBy(desc(scans.finishedAt))
    .limit(1);
  const parsed = latest ? scanResultSchema.safeParse(latest.result) : undefined;
  return latest && parsed?.success ? { id: latest.id, result: parsed.data } : undefined;
}
