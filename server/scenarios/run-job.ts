import { plural } from '../../common/plural';
import { and, eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { stepsSchema, type ScenarioRun } from '../../common/scenarios';
import type { AddressPolicy } from '../../engine/retrieval/address-policy';
import { openScenarioBrowser, runScenario, type ScenarioBrowser, type ScenarioRunResult } from '../../engine/scenarios';
import type { Db } from '../db';
import { events, projects, scenarioRuns, scenarios } from '../db/schema';
import type { LiveBus } from '../live/bus';
import type { Sealer } from '../projects/sealed';
import type { WebhookEmitter } from '../webhooks/delivery';
import { scenarioRunData } from '../webhooks/events';
import { clearEarlierRunEvents, RunEventBatcher, type RunAttempt } from './run-events';
import { credentialsOf, runColumns, toRun } from './service';
import { claimLease, type Lease } from '../jobs/lease';

export interface ScenarioJobDeps {
  db: Db;
  live: LiveBus;
  logger: Logger;
  sealer: Sealer;
  policy: AddressPolicy;
  rateLimit: number;
  /** The worker's browser, opened on first use (see ScenarioBrowserPool). */
  browser: () => Promise<ScenarioBrowser>;
  /** Announces finished runs to the user's webhooks; absent = none. */
  webhooks?: WebhookEmitter;
}

/** What a run keeps: bounded so that one noisy page cannot fill the database. */
export const RUN_LIMITS = { listed: 50, text: 500, screenshotBytes: 5 * 1024 * 1024, traceBytes: 5 * 1024 * 1024 } as const;

/**
 * One Chromium per worker process, opened when the first run needs it and shared by the runs of this process (each
 * gets a fresh context); opened again after it crashed; closed when the process stops.
 */
export class ScenarioBrowserPool {
  #opening: Promise<ScenarioBrowser> | undefined;

  constructor(private readonly open: () => Promise<ScenarioBrowser> = () => Promise.reject(new Error('no browser'))) {}

  get(): Promise<ScenarioBrowser> {
    const current = this.#opening;
    if (current) {
      return current.then((opened) => {
        if (opened.browser.isConnected()) return opened;
        if (this.#opening === current) this.#opening = undefined;
        return this.get();
      });
    }
    const opening = this.open();
    this.#opening = opening;
    opening.catch(() => {
      if (this.#opening === opening) this.#opening = undefined;
    });
    return opening;
  }

  async close(): Promise<void> {
    const opening = this.#opening;
    this.#opening = undefined;
    if (opening) await opening.then((opened) => opened.close()).catch(() => undefined);
  }
}

export const scenarioBrowserPool = (chromiumPath: string | null | undefined, policy: AddressPolicy) => new ScenarioBrowserPool(() => openScenarioBrowser({ chromiumPath, policy }));

const capText = (text: string) => (text.length > RUN_LIMITS.text ? `${text.slice(0, RUN_LIMITS.text - 1)}…` : text);

/** The run as the live stream carries it: lists shortened so that the message fits a PostgreSQL notification. */
export function liveRun(run: ScenarioRun): ScenarioRun {
  const short = (text: string | null) => (text && text.length > 200 ? `${text.slice(0, 199)}…` : text);
  return {
    ...run,
    error: short(run.error),
    steps: run.steps.map((step) => ({ ...step, error: short(step.error) })),
    console_errors: run.console_errors.slice(0, 3).map((text) => short(text)!),
    failed_requests: run.failed_requests.slice(0, 3).map((request) => ({ ...request, url: short(request.url)!, failure: short(request.failure)! })),
  };
}

/** Publishes the run's current state (`scenario.run`) to the windows of its workspace's members. */
export async function publishRun(db: Db, live: Pick<LiveBus, 'publish'>, runId: string): Promise<void> {
  const [row] = await db.select(runColumns).from(scenarioRuns).where(eq(scenarioRuns.id, runId));
  if (!row) return;
  await live.publish(row.workspaceId, { type: 'scenario.run', scenario_id: row.scenarioId, run: liveRun(toRun(row)) });
}

/** The result in the run's row, bounded, if this attempt still owns the run. */
export async function storeRunResult(db: Db, owner: RunAttempt, result: ScenarioRunResult): Promise<boolean> {
  const stored = await db
    .update(scenarioRuns)
    .set({
      state: result.status,
      finishedAt: sql`now()`,
      heartbeatAt: null,
      durationMs: Math.round(result.durationMs),
      failedStep: result.failedStep,
      error: result.error === null ? null : capText(result.error),
      steps: result.steps.map((step) => ({ ...step, error: step.error === null ? null : capText(step.error) })),
      consoleErrors: result.consoleErrors.slice(0, RUN_LIMITS.listed).map(capText),
      failedRequests: result.failedRequests
        .slice(0, RUN_LIMITS.listed)
        .map((request) => ({ url: capText(request.url), method: request.method.slice(0, 20), failure: capText(request.failure) })),
      screenshot: result.screenshot && result.screenshot.length <= RUN_LIMITS.screenshotBytes ? result.screenshot : null,
      trace: result.trace && result.trace.length <= RUN_LIMITS.traceBytes ? result.trace : null,
    })
    .where(and(eq(scenarioRuns.id, owner.runId), eq(scenarioRuns.attempts, owner.attempt), eq(scenarioRuns.state, 'running')))
    .returning({ id: scenarioRuns.id });
  return stored.length > 0;
}

/** The scenario a run replays, with the credentials of its project. */
async function loadScenario(db: Db, sealer: Sealer, scenarioId: string) {
  const [row] = await db
    .select({ website: scenarios.website, actions: scenarios.actions, projectId: scenarios.projectId, name: scenarios.summarizedActions, sealed: projects.secretInstructionSealed })
    .from(scenarios)
    .leftJoin(projects, eq(projects.id, scenarios.projectId))
    .where(eq(scenarios.id, scenarioId));
  if (!row) return undefined;
  return {
    website: row.website,
    name: row.name ?? row.website,
    steps: stepsSchema.parse(row.actions),
    projectId: row.projectId,
    credentials: credentialsOf(sealer, row.sealed ?? null),
  };
}

/**
 * Runs one scenario run job: claims the run, replays the steps in the worker's browser with a trace, records what
 * happened as events and stores the result. `finalAttempt` says whether a thrown error will be retried.
 */
export async function runScenarioJob(
  runId: string,
  deps: ScenarioJobDeps,
  { signal, finalAttempt }: { signal?: AbortSignal; finalAttempt: boolean },
): Promise<'passed' | 'failed' | 'skipped'> {
  const { db, live, logger } = deps;
  const lease = await claimLease(db, scenarioRuns, runId);
  if (!lease) return 'skipped';
  const { row } = lease;
  const log = logger.child({ scenarioRun: row.id, scenario: row.scenarioId });
  const owner: RunAttempt = { runId: row.id, scenarioId: row.scenarioId, attempt: row.attempts };
  const scenario = await loadScenario(db, deps.sealer, row.scenarioId);
  if (!scenario) return 'skipped'; // deleted since it was queued: its run went with it
  const batcher = new RunEventBatcher(db, live, owner, { workspaceId: row.workspaceId, userId: row.userId, projectId: scenario.projectId }, log);
  await clearEarlierRunEvents(db, row.workspaceId, owner);
  await publishRun(db, live, row.id);
  await batcher.record([
    {
      workspaceId: row.workspaceId,
      userId: row.userId,
      projectId: scenario.projectId,
      kind: 'other',
      url: scenario.website,
      extra: batcher.extra(`Scenario run started (attempt ${row.attempts}, ${plural(scenario.steps.length, 'step')})`, { lifecycle: true }),
    },
  ]);
  batcher.start();
  const stopHeartbeat = lease.keepAlive(log);
  try {
    const { browser } = await deps.browser();
    const result = await runScenario({
      website: scenario.website,
      steps: scenario.steps,
      credentials: scenario.credentials,
      browser,
      policy: deps.policy,
      rateLimit: deps.rateLimit,
      trace: true,
      signal,
      onEvent: (event) => batcher.add(event),
    });
    // A run cut short by the stop of the process is not a failure of the site: it runs again after the restart.
    if (signal?.aborted) throw signal.reason ?? new Error('stopped');
    await batcher.stop();
    if (!(await storeRunResult(db, owner, result))) return 'skipped';
    const dropped = batcher.dropped ? ` (${batcher.dropped} more events not listed)` : '';
    const summary =
      result.status === 'passed'
        ? `Scenario passed in ${Math.round(result.durationMs)} ms`
        : `Scenario failed at step ${(result.failedStep ?? 0) + 1}: ${result.error ?? 'no reason given'}`;
    await batcher.record([
      {
        workspaceId: row.workspaceId,
        userId: row.userId,
        projectId: scenario.projectId,
        kind: result.status === 'passed' ? 'other' : 'error',
        url: scenario.website,
        extra: batcher.extra(`${summary}${dropped}`, { lifecycle: true }),
      },
    ]);
    // Once per run: storeRunResult succeeds only for the attempt that still owns the running run. The summary event is
    // recorded first, so a reader who sees the finished run finds its summary a moment later at most.
    await deps.webhooks?.emit(
      { workspaceId: row.workspaceId, userId: row.userId },
      'scenario_run.completed',
      scenarioRunData({ runId: row.id, scenarioId: row.scenarioId, name: scenario.name, website: scenario.website, projectId: scenario.projectId, ...result }),
    );
    await publishRun(db, live, row.id);
    log.info({ status: result.status, ms: Math.round(result.durationMs), failedStep: result.failedStep }, 'scenario run finished');
    return result.status;
  } catch (error) {
    await batcher.stop();
    return await recordRunFailure(lease, owner, scenario, error, deps, { signal, finalAttempt });
  } finally {
    stopHeartbeat();
  }
}

/**
 * After a run threw (the browser could not start or crashed; the process is stopping): back to the queue when the
 * process stops; otherwise failed for good on the last attempt, or queued again for pg-boss's retry.
 */
async function recordRunFailure(
  lease: Lease<typeof scenarioRuns>,
  owner: RunAttempt,
  scenario: { name: string; website: string; projectId: string | null },
  error: unknown,
  deps: ScenarioJobDeps,
  { signal, finalAttempt }: { signal?: AbortSignal; finalAttempt: boolean },
): Promise<'failed' | 'skipped'> {
  const { db, live } = deps;
  const { row } = lease;
  const base = { workspaceId: row.workspaceId, userId: row.userId, projectId: scenario.projectId, url: scenario.website };
  if (signal?.aborted) {
    await lease.putBack();
    await db.insert(events).values({
      ...base,
      eventName: 'other',
      extra: { description: 'Scenario run interrupted by a server restart; it will run again', scenario_id: owner.scenarioId, run_id: owner.runId },
    });
    await publishRun(db, live, row.id);
    return 'skipped';
  }
  const message = `The run could not complete: ${capText((error as Error).message ?? String(error))}`;
  deps.logger.child({ scenarioRun: row.id }).warn({ err: error, permanent: finalAttempt }, 'scenario run failed');
  const stored = await lease.end(message, { permanent: finalAttempt });
  await db
    .insert(events)
    .values({ ...base, eventName: 'error', extra: { description: finalAttempt ? message : `${message} (will retry)`, scenario_id: owner.scenarioId, run_id: owner.runId } });
  await publishRun(db, live, row.id);
  if (!finalAttempt) throw error;
  if (!stored) return 'failed'; // another attempt owns the run now: it announces its own end
  // A run that failed for good is announced like one the site failed: its member hears of it (alone, or in the
  // summary of its Run All, which waits for every run of the batch).
  await deps.webhooks?.emit(
    { workspaceId: row.workspaceId, userId: row.userId },
    'scenario_run.completed',
    scenarioRunData({
      runId: row.id,
      scenarioId: row.scenarioId,
      name: scenario.name,
      website: scenario.website,
      projectId: scenario.projectId,
      status: 'failed',
      failedStep: null,
      error: message,
      durationMs: 0,
    }),
  );
  return 'failed';
}
