import { z } from 'zod';
import { continuousBuildSchema } from '../common/continuous';
import { scanSummarySchema, type LiveMessage } from '../common/projects';
import { scenarioRunSchema } from '../common/scenarios';
import { apiHeaders, type ActiveSession } from './live-session';

/** Finishes this long before the drop are looked for too: the server's clock and ours may differ a little. */
export const CATCH_UP_SLACK_MS = 5_000;
/** The first page of each list: a drop of a few seconds or minutes finishes far fewer runs than this. */
const PAGE = 100;

const projectsSchema = z.array(z.object({ id: z.string(), latest_scan: scanSummarySchema.nullable() }));
const scenariosSchema = z.array(z.object({ id: z.string(), last_run: scenarioRunSchema.nullable() }));
const buildsSchema = z.array(continuousBuildSchema);

export interface CatchUpOptions {
  origin: string;
  fetch?: typeof fetch;
}

async function getList(options: CatchUpOptions, session: ActiveSession, path: string): Promise<unknown> {
  const response = await (options.fetch ?? fetch)(`${options.origin}${path}`, {
    headers: apiHeaders(session),
    signal: AbortSignal.timeout(10_000),
    redirect: 'error',
  });
  return response.ok ? response.json() : null;
}

const finishedSince = (time: number, since: number) => Number.isFinite(time) && time >= since - CATCH_UP_SLACK_MS;

/**
 * What the stream would have said while it was down: the latest scans, scenario runs and continuous builds that
 * finished since `since`, as live messages (the notifier's dedupe drops those that were seen after all).
 */
export async function missedFinishes(options: CatchUpOptions, session: ActiveSession, since: number): Promise<LiveMessage[]> {
  const [projects, scenarios, builds] = await Promise.all([
    getList(options, session, `/projects?limit=${PAGE}`).then((body) => projectsSchema.safeParse(body)),
    getList(options, session, `/scenarios?limit=${PAGE}`).then((body) => scenariosSchema.safeParse(body)),
    getList(options, session, `/continuous_builds?limit=${PAGE}`).then((body) => buildsSchema.safeParse(body)),
  ]);
  const messages: LiveMessage[] = [];
  for (const { id, latest_scan: scan } of projects.success ? projects.data : []) {
    if (!scan || (scan.state !== 'completed' && scan.state !== 'failed')) continue;
    if (finishedSince(Date.parse(scan.finished_at ?? ''), since)) messages.push({ type: 'scan.state', project_id: id, scan_id: scan.id, scan });
  }
  for (const { id, last_run: run } of scenarios.success ? scenarios.data : []) {
    if (!run || (run.status !== 'passed' && run.status !== 'failed')) continue;
    // A run has no finish time: its start plus its duration, else when it was queued.
    const finished = run.started_at && run.duration_ms !== null ? Date.parse(run.started_at) + run.duration_ms : Date.parse(run.created_at);
    if (finishedSince(finished, since)) messages.push({ type: 'scenario.run', scenario_id: id, run });
  }
  for (const build of builds.success ? builds.data : []) {
    if (build.finished_at && finishedSince(Date.parse(build.finished_at), since)) messages.push({ type: 'continuous.build', build });
  }
  return messages;
}
