import { and, desc, eq, inArray, isNull, lt, ne, sql } from 'drizzle-orm';
import { z } from 'zod';
import { findingSchema } from '../../common/scan';
import type { Db } from '../db';
import { continuousBuilds, scans } from '../db/schema';
import type { LiveBus } from '../live/bus';
import type { WebhookEmitter } from '../webhooks/delivery';
import { continuousBuildData } from '../webhooks/events';
import { toBuild } from './service';
import { judgeBuild, type JudgedScan, type PreviousScan } from './verdict';

export interface BuildJudgeDeps {
  db: Db;
  live: Pick<LiveBus, 'publish'>;
  webhooks?: WebhookEmitter;
}

type BuildRow = typeof continuousBuilds.$inferSelect;
type ScanRow = typeof scans.$inferSelect;

const storedFindingsSchema = z.object({ findings: z.array(findingSchema) });
const findingsOf = (result: unknown) => {
  const parsed = storedFindingsSchema.safeParse(result);
  return parsed.success ? parsed.data.findings : null;
};

/** Whether a scan is over: completed, or failed for good (a scan to be retried is queued again, not failed). */
export const isFinished = (scan: Pick<ScanRow, 'state'>) => scan.state === 'completed' || scan.state === 'failed';

/**
 * Judges continuous builds when their re-scan ends (any process that runs scans: the server or `vibeeval worker`)
 * and announces each judged build on the live stream (open windows, desktop notifications) and to webhooks.
 */
export class BuildJudge {
  constructor(private readonly deps: BuildJudgeDeps) {}

  /**
   * Judges every build waiting for this scan, once the scan has completed or failed for good. Each build is judged
   * once even when two workers get here: only the update that finds finished_at still null writes and announces.
   */
  async judgeScan(scanId: string): Promise<void> {
    const waiting = await this.deps.db
      .select({ id: continuousBuilds.id })
      .from(continuousBuilds)
      .where(and(eq(continuousBuilds.scanId, scanId), isNull(continuousBuilds.finishedAt)));
    if (waiting.length === 0) return;
    const [scan] = await this.deps.db.select().from(scans).where(eq(scans.id, scanId));
    if (!scan || !isFinished(scan)) return;
    const verdict = judgeBuild(judgedScan(scan), await this.previousOf(scan));
    const judged = await this.deps.db
      .update(continuousBuilds)
      .set({ status: verdict.status, changes: verdict.changes, finishedAt: sql`now()` })
      .where(and(eq(continuousBuilds.scanId, scanId), isNull(continuousBuilds.finishedAt)))
      .returning();
    for (const build of judged) await this.announce(build);
  }

  /**
   * Judges the builds whose scan is over but which were never judged: the process that finished the scan stopped
   * before judging them (a crash, a deploy). Run by the schedule's tick; answers how many scans it looked at.
   */
  async judgeMissed(limit = 50): Promise<number> {
    const missed = await this.deps.db
      .selectDistinct({ scanId: scans.id })
      .from(continuousBuilds)
      .innerJoin(scans, eq(scans.id, continuousBuilds.scanId))
      .where(and(isNull(continuousBuilds.finishedAt), inArray(scans.state, ['completed', 'failed'])))
      .limit(limit);
    for (const { scanId } of missed) await this.judgeScan(scanId);
    return missed.length;
  }

  /** The project's newest completed scan that finished before this one. */
  private async previousOf(scan: ScanRow): Promise<PreviousScan | null> {
    const before = scan.finishedAt ?? new Date();
    const [row] = await this.deps.db
      .select({ id: scans.id, result: scans.result, grade: scans.grade })
      .from(scans)
      .where(and(eq(scans.projectId, scan.projectId), eq(scans.state, 'completed'), ne(scans.id, scan.id), lt(scans.finishedAt, before)))
      .orderBy(desc(scans.finishedAt))
      .limit(1);
    if (!row) return null;
    return { id: row.id, grade: row.grade, findings: findingsOf(row.result) ?? [] };
  }

  /** A judged build: to the owner's open windows and desktop (live stream) and webhooks. */
  private async announce(build: BuildRow): Promise<void> {
    await this.deps.live.publish(build.workspaceId, { type: 'continuous.build', build: toBuild(build) });
    await this.deps.webhooks?.emit({ workspaceId: build.workspaceId, userId: build.userId }, 'continuous_build.completed', continuousBuildData(toBuild(build)));
  }
}

function judgedScan(scan: ScanRow): JudgedScan {
  if (scan.state === 'failed') return { state: 'failed', findings: null, grade: null, error: scan.error };
  const findings = findingsOf(scan.result);
  if (!findings) return { state: 'failed', findings: null, grade: scan.grade, error: 'The re-scan result could not be read.' };
  return { state: 'completed', findings, grade: scan.grade, error: null };
}
