import { plural } from '../../common/plural';
import { and, eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../db';
import { continuousBuilds, scans } from '../db/schema';
import type { EventService } from '../events/service';
import type { LiveBus } from '../live/bus';
import { toScanSummary, type ProjectService } from '../projects/service';
import { liveRun } from '../scenarios/run-job';
import { type ScenarioService } from '../scenarios/service';
import type { WebhookEmitter } from '../webhooks/delivery';
import { BuildJudge, isFinished } from './build-judge';
import { toBuild, type BuildStarter } from './service';
import type { Actor } from '../workspaces/actor';
import type { ScanTrigger } from '../../common/scan-history';
import { HttpError } from '../http-errors';

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

/** A build acts in its project's workspace, as the member who made the project (a site's report has no signed-in user). */
const actorOfBuild = (build: BuildRow): Actor => ({ workspaceId: build.workspaceId, userId: build.userId });

/** A build's re-scan in the project's history: monitoring's scheduled check, or the site's script seeing a change. */
const triggerOfBuild = (build: BuildRow): ScanTrigger => (build.trigger === 'schedule' ? 'schedule' : 'site_change');

/**
 * Continuous builds judged by real re-scans: a new build queues a scan of its project (or joins the one already
 * queued or running) and a run of each of its scenarios; when that scan ends, BuildJudge judges every build waiting
 * for it against the project's scan before it.
 */
export class ContinuousBuilds implements BuildStarter {
  private readonly judge: BuildJudge;

  constructor(private readonly deps: ContinuousBuildDeps) {
    this.judge = new BuildJudge(deps);
  }

  /**
   * Starts the re-scan of a new build. Never throws: the site that reported the change gets its answer whatever
   * happens here, and a build that could not be queued stays 'other'.
   */
  async start(buildId: string): Promise<void> {
    const log = this.deps.logger.child({ build: buildId });
    try {
      const [build] = await this.deps.db.select().from(continuousBuilds).where(eq(continuousBuilds.id, buildId));
      if (!build) return;
      const scan = await this.scanFor(build);
      // Announced with its re-scan (an open screen links the two at once) before it is stored: the build can only be
      // judged once stored, so this message always comes before the judged one.
      await this.publish({ ...build, scanId: scan.id });
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
      scan = await this.deps.projects.queueScan(actorOfBuild(build), build.projectId, triggerOfBuild(build));
    } catch (error) {
      if (!(error instanceof HttpError) || error.statusCode !== 409) throw error;
      const [active] = await this.deps.db
        .select()
        .from(scans)
        .where(and(eq(scans.projectId, build.projectId), sql`${scans.state} in ('queued', 'running')`))
        .limit(1);
      if (active) return active;
      // The active scan ended between the two statements: queue a fresh one.
      return this.deps.projects.queueScan(actorOfBuild(build), build.projectId, triggerOfBuild(build));
    }
    await this.deps.enqueueScan(scan.id);
    const pages = `up to ${plural(scan.numPages, 'page')}`;
    await this.deps.events.record([
      { ...actorOfBuild(build), projectId: scan.projectId, scanId: scan.id, kind: 'other', url: scan.url, extra: { description: `Scan queued (${pages})`, scan_id: scan.id } },
    ]);
    await this.deps.live.publish(build.workspaceId, { type: 'scan.state', project_id: scan.projectId, scan_id: scan.id, scan: toScanSummary(scan) });
    return scan;
  }

  /** One run of each of the project's scenarios (those not already running); a project without any has none. */
  private async runScenarios(build: BuildRow, log: Logger): Promise<void> {
    let runs;
    try {
      runs = await this.deps.scenarios.queueAll(build.workspaceId, build.userId, build.projectId);
    } catch (error) {
      if (error instanceof HttpError && error.statusCode === 400) return; // no scenarios
      log.warn({ err: error }, "could not queue the project's scenario runs for a continuous build");
      return;
    }
    for (const run of runs) {
      await this.deps.enqueueScenarioRun(run.id);
      await this.deps.live.publish(build.workspaceId, { type: 'scenario.run', scenario_id: run.scenario_id, run: liveRun(run) });
    }
  }

  /** Judges the builds whose scan ended without them being judged (see BuildJudge.judgeMissed). */
  judgeMissed(): Promise<number> {
    return this.judge.judgeMissed();
  }

  /** Judges the builds waiting for a finished scan (see BuildJudge). */
  judgeScan(scanId: string): Promise<void> {
    return this.judge.judgeScan(scanId);
  }

  private async publish(build: BuildRow): Promise<void> {
    await this.deps.live.publish(build.workspaceId, { type: 'continuous.build', build: toBuild(build) });
  }
}
