import { and, desc, eq, isNull, lt, ne, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { z } from 'zod';
import { findingSchema } from '../../common/scan';
import type { Db } from '../db';
import { continuousBuilds, scans } from '../db/schema';
import type { EventService } from '../events/service';
import type { LiveBus } from '../live/bus';
import { ProjectError, toScanSummary, type ProjectService } from '../projects/service';
import { liveRun } from '../scenarios/run-job';
import { ScenarioError, type ScenarioService } from '../scenarios/service';
import type { WebhookEmitter } from '../webhooks/delivery';
import { continuousBuildData } from '../webhooks/events';
import { toBuild, type BuildStarter } from './service';
import { judgeBuild, type JudgedScan, type PreviousScan } from './verdict';

export interface ContinuousBuildDeps {
  db: Db;
  projects: Pick<ProjectService, 'queueScan'>;
  scenarios: Pick<ScenarioService, 'queueAll'>;
  events: Pick<EventService, 'record'>;
  live: Pick<LiveBus, 'publish'>;
  enqueueScan(scanId: string): Promise<void>;
  enqueueScenarioRun(runId: string): Promise<void>;
  webhooks?: WebhookEmitter;
  logger: Logger;
}

type BuildRow = typeof continuousBuilds.$inferSelect;
type ScanRow = typeof scans.$inferSelect;

const storedFindingsSchema = z.object({ findings: z.array(findingSchema) });
const findingsOf = (result: unknown) => {
  const parsed = storedFindingsSchema.safeParse(result);
  return parsed.success ? parsed.data.findings : null;
};
const isFinished = (scan: Pick<ScanRow, 'state'>) => scan.state === 'completed' || scan.state === 'failed';

/**
 * Continuous builds judged by real re-scans: a new build queues a scan of its project (or joins the one already
 * queued or running) and a run of each of its scenarios; when that scan ends, every build waiting for it is judged
 * against the project's scan before it and announced on the live stream, to webhooks and (through the live stream)
 * as a desktop notification.
 */
export class ContinuousBuilds implements BuildStarter {
  constructor(private readonly deps: ContinuousBuildDeps) {}

  /**
   * Starts the re-scan of a new build. Never throws: the site that reported the change gets its answer whatever
   * happens here, and a build that could not be queued stays 'other'.
   */
  async start(buildId: string): Promise<void> {
    const log = this.deps.logger.child({ build: buildId });
    try {
      const [build] = await this.deps.db.select().from(continuousBuilds).where(eq(continuousBuilds.id, buildId));
      if (!build) return;
      await this.publish(build);
      const scan = await this.scanFor(build);
      await this.deps.db.update(continuousBuilds).set({ scanId: scan.id }).where(eq(continuousBuilds.id, build.id));
      await this.runScenarios(build, log);
      // The scan joined may have ended before the build named it: nothing would judge the build then.
      const [now] = await this.deps.db.select({ state: scans.state }).from(scans).where(eq(scans.id, scan.id));
      if (now && isFinished(now)) await this.judgeScan(scan.id);
    } catch (error) {
      log.error({ err: error }, 'could not start the re-scan of a continuous build');
    }
  }

  /** A new scan of the build's project, queued as Run Test queues one; or the scan already queued or running. */
  private async scanFor(build: BuildRow): Promise<ScanRow> {
    let scan: ScanRow;
    try {
      scan = await this.deps.projects.queueScan(build.userId, build.projectId);
    } catch (error) {
      if (!(error instanceof ProjectError) || error.statusCode !== 409) throw error;
      const [active] = await this.deps.db
        .select()
        .from(scans)
        .where(and(eq(scans.projectId, build.projectId), sql`${scans.state} in ('queued', 'running')`))
        .limit(1);
      if (active) return active;
      // The active scan ended between the two statements: queue a fresh one.
      return this.deps.projects.queueScan(build.userId, build.projectId);
    }
    await this.deps.enqueueScan(scan.id);
    const pages = `up to ${scan.numPages} page${scan.numPages === 1 ? '' : 's'}`;
    await this.deps.events.record([
      { userId: build.userId, projectId: scan.projectId, scanId: scan.id, kind: 'other', url: scan.url, extra: { description: `Scan queued (${pages})`, scan_id: scan.id } },
    ]);
    await this.deps.live.publish(build.userId, { type: 'scan.state', project_id: scan.projectId, scan_id: scan.id, scan: toScanSummary(scan) }).catch(() => undefined);
    return scan;
  }

  /** One run of each of the project's scenarios (those not already running); a project without any has none. */
  private async runScenarios(build: BuildRow, log: Logger): Promise<void> {
    let runs;
    try {
      runs = await this.deps.scenarios.queueAll(build.userId, build.projectId);
    } catch (error) {
      if (error instanceof ScenarioError && error.statusCode === 400) return; // no scenarios
      log.warn({ err: error }, "could not queue the project's scenario runs for a continuous build");
      return;
    }
    for (const run of runs) {
      await this.deps.enqueueScenarioRun(run.id);
      await this.deps.live.publish(build.userId, { type: 'scenario.run', scenario_id: run.scenario_id, run: liveRun(run) }).catch(() => undefined);
    }
  }

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

  private async publish(build: BuildRow): Promise<void> {
    await this.deps.live.publish(build.userId, { type: 'continuous.build', build: toBuild(build) }).catch(() => undefined);
  }

  /** A judged build: to the owner's open windows and desktop (live stream) and webhooks. */
  private async announce(build: BuildRow): Promise<void> {
    await this.publish(build);
    await this.deps.webhooks?.emit(build.userId, 'continuous_build.completed', continuousBuildData(toBuild(build)));
  }
}

function judgedScan(scan: ScanRow): JudgedScan {
  if (scan.state === 'failed') return { state: 'failed', findings: null, grade: null, error: scan.error };
  const findings = findingsOf(scan.result);
  if (!findings) return { state: 'failed', findings: null, grade: scan.grade, error: 'The re-scan result could not be read.' };
  return { state: 'completed', findings, grade: scan.grade, error: null };
}
