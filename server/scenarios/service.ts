import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { PageQuery } from '../../common/pagination';
import {
  SCENARIO_DETAIL_RUNS,
  SCENARIO_LIMITS,
  type createScenarioBodySchema,
  type Scenario,
  type ScenarioDetail,
  type ScenarioRun,
  type Step,
  type StepResult,
} from '../../common/scenarios';
import { urlRefusal, type AddressPolicy } from '../../engine/retrieval/address-policy';
import { parseCredentials, scenarioCode, type Credentials } from '../../engine/scenarios';
import type { Db } from '../db';
import { projects, scenarioRuns, scenarios } from '../db/schema';
import { cursorTimestampSql, decodeCursor, pageOf } from '../pagination';
import { isUuid } from '../projects/service';
import type { Sealer } from '../projects/sealed';
import type { PlanGate } from '../billing/plan-gate';
import { insertWithinPlan } from '../billing/plan-room';
import { HttpError } from '../http-errors';

type ScenarioRow = typeof scenarios.$inferSelect;
type RunRow = typeof scenarioRuns.$inferSelect;

/** The columns of a run without its screenshot and trace bytes, and whether each is there. */
export const runColumns = {
  id: scenarioRuns.id,
  scenarioId: scenarioRuns.scenarioId,
  userId: scenarioRuns.userId,
  workspaceId: scenarioRuns.workspaceId,
  state: scenarioRuns.state,
  attempts: scenarioRuns.attempts,
  createdAt: scenarioRuns.createdAt,
  startedAt: scenarioRuns.startedAt,
  durationMs: scenarioRuns.durationMs,
  failedStep: scenarioRuns.failedStep,
  error: scenarioRuns.error,
  steps: scenarioRuns.steps,
  consoleErrors: scenarioRuns.consoleErrors,
  failedRequests: scenarioRuns.failedRequests,
  hasScreenshot: sql<boolean>`${scenarioRuns.screenshot} is not null`,
  hasTrace: sql<boolean>`${scenarioRuns.trace} is not null`,
};
export type RunSummaryRow = Pick<
  RunRow,
  'id' | 'scenarioId' | 'state' | 'createdAt' | 'startedAt' | 'durationMs' | 'failedStep' | 'error' | 'steps' | 'consoleErrors' | 'failedRequests'
> & {
  hasScreenshot: boolean;
  hasTrace: boolean;
};

/** A run as the API answers it; the screenshot and trace are downloaded from their own paths. */
export function toRun(row: RunSummaryRow): ScenarioRun {
  return {
    id: row.id,
    scenario_id: row.scenarioId,
    status: row.state,
    created_at: row.createdAt.toISOString(),
    started_at: row.startedAt?.toISOString() ?? null,
    duration_ms: row.durationMs,
    failed_step: row.failedStep,
    error: row.error,
    steps: row.steps as StepResult[],
    console_errors: row.consoleErrors,
    failed_requests: row.failedRequests,
    screenshot_url: row.hasScreenshot ? `/scenario-run/${row.id}/screenshot` : null,
    trace_url: row.hasTrace ? `/scenario-run/${row.id}/trace` : null,
  };
}

function toScenario(row: ScenarioRow, lastRun: ScenarioRun | null): Scenario {
  return {
    id: row.id,
    project_id: row.projectId,
    website: row.website,
    actions: JSON.stringify(row.actions),
    summarized_actions: row.summarizedActions,
    scenario_code: row.scenarioCode,
    created_at: row.createdAt.toISOString(),
    last_run: lastRun,
  };
}

const describeTarget = (step: Step): string => {
  if (!('target' in step) || !step.target) return '';
  const target = step.target;
  switch (target.by) {
    case 'role':
      return target.name ? ` ${target.name}` : ` ${target.role}`;
    case 'test_id':
      return ` ${target.id}`;
    case 'css':
      return ` ${target.selector}`;
    default:
      return ` ${target.text}`;
  }
};

const STEP_VERBS: Record<Step['type'], string> = {
  goto: 'Open',
  click: 'Click',
  fill: 'Fill',
  press: 'Press',
  select: 'Select in',
  check: 'Check',
  hover: 'Hover',
  wait_for: 'Wait for',
  expect_visible: 'See',
  expect_text: 'Check text of',
  expect_url: 'URL matches',
  expect_title: 'Title has',
  expect_no_console_errors: 'No console errors',
  expect_no_failed_requests: 'No failed requests',
};

/** A scenario's name when none is given: its first steps in words ('Open /login, Fill Email, Click Sign in +3 steps'). */
export function nameFromSteps(steps: Step[]): string {
  const words = steps.slice(0, 3).map((step) => {
    const detail =
      step.type === 'goto'
        ? ` ${step.url}`
        : step.type === 'press'
          ? ` ${step.key}`
          : step.type === 'expect_url'
            ? ` ${step.pattern}`
            : step.type === 'expect_title'
              ? ` ${step.text}`
              : describeTarget(step);
    return `${STEP_VERBS[step.type]}${detail}`.trim();
  });
  const more = steps.length > 3 ? ` +${steps.length - 3} step${steps.length - 3 === 1 ? '' : 's'}` : '';
  const name = `${words.join(', ')}${more}`;
  return name.length > SCENARIO_LIMITS.name ? `${name.slice(0, SCENARIO_LIMITS.name - 1)}…` : name;
}

/**
 * How long saving a scenario waits for the address policy's DNS answer; past it the website is accepted, since
 * every run checks each address it connects to (like a project's URL, server/projects/service.ts).
 */
const POLICY_LOOKUP_MS = 3000;
const sortAt = sql<string>`${sql.raw(cursorTimestampSql('"scenarios"."created_at"'))}`;

/**
 * Scenarios and runs of one workspace, shared by its members. Every query is filtered by the workspace's id:
 * another workspace's records answer 404. What a member creates or starts records them as its `user_id`.
 */
export class ScenarioService {
  constructor(
    private readonly db: Db,
    private readonly sealer: Sealer,
    /** The scanner's address policy: a scenario's website must be one its runs may reach. */
    private readonly policy: AddressPolicy,
    /** The plan's scenario limit (the server's; workers create no scenarios and pass none). */
    private readonly plan?: PlanGate,
  ) {}

  private async assertReachable(url: string): Promise<void> {
    if (this.policy.allowPrivate) return;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), POLICY_LOOKUP_MS)));
    const refusal = await Promise.race([urlRefusal(this.policy, url, new Map()), timeout]).finally(() => clearTimeout(timer));
    if (refusal) throw new HttpError(400, `website: ${refusal}`);
  }

  /** The workspace's project, for a scenario or a proposal: 404 when it is another workspace's or does not exist. */
  async project(workspaceId: string, projectId: string): Promise<{ id: string; url: string; instructions: string | null; credentials: Credentials | null }> {
    if (!isUuid(projectId)) throw new HttpError(404, 'Project not found');
    const [row] = await this.db
      .select({ id: projects.id, url: projects.url, instructions: projects.instructionText, sealed: projects.secretInstructionSealed })
      .from(projects)
      .where(and(eq(projects.id, projectId), eq(projects.workspaceId, workspaceId)));
    if (!row) throw new HttpError(404, 'Project not found');
    return { id: row.id, url: row.url, instructions: row.instructions, credentials: credentialsOf(this.sealer, row.sealed) };
  }

  private async row(workspaceId: string, id: string): Promise<ScenarioRow> {
    if (!isUuid(id)) throw new HttpError(404, 'Scenario not found');
    const [row] = await this.db
      .select()
      .from(scenarios)
      .where(and(eq(scenarios.id, id), eq(scenarios.workspaceId, workspaceId)));
    if (!row) throw new HttpError(404, 'Scenario not found');
    return row;
  }

  /** The latest run of each scenario. */
  private async lastRuns(ids: string[]): Promise<Map<string, ScenarioRun>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectDistinctOn([scenarioRuns.scenarioId], runColumns)
      .from(scenarioRuns)
      .where(inArray(scenarioRuns.scenarioId, ids))
      .orderBy(scenarioRuns.scenarioId, desc(scenarioRuns.createdAt), desc(scenarioRuns.id));
    return new Map(rows.map((row) => [row.scenarioId, toRun(row)]));
  }

  /** One page of the workspace's scenarios, newest first, each with its last run. */
  async list(workspaceId: string, { limit, cursor, projectId }: PageQuery & { projectId?: string }): Promise<{ items: Scenario[]; next: string | null }> {
    const after = decodeCursor(cursor);
    const conditions: SQL[] = [eq(scenarios.workspaceId, workspaceId)];
    if (projectId) conditions.push(eq(scenarios.projectId, projectId));
    if (after) conditions.push(sql`(${scenarios.createdAt}, ${scenarios.id}) < (${after.at}::timestamptz, ${after.id}::uuid)`);
    const rows = await this.db
      .select({ row: scenarios, sortAt })
      .from(scenarios)
      .where(and(...conditions))
      .orderBy(desc(scenarios.createdAt), desc(scenarios.id))
      .limit(limit + 1);
    const page = pageOf(rows, limit, ({ row, sortAt: at }) => ({ at, id: row.id }));
    const last = await this.lastRuns(page.items.map(({ row }) => row.id));
    return { items: page.items.map(({ row }) => toScenario(row, last.get(row.id) ?? null)), next: page.next };
  }

  async create(workspaceId: string, userId: string, body: z.output<typeof createScenarioBodySchema>): Promise<Scenario> {
    if (body.project_id) await this.project(workspaceId, body.project_id);
    await this.assertReachable(body.website);
    const steps = body.actions;
    const name = body.summarized_actions?.trim() || nameFromSteps(steps);
    const code = scenarioCode({ website: body.website, steps, name });
    const values = { workspaceId, userId, projectId: body.project_id ?? null, website: body.website, actions: steps, summarizedActions: name, scenarioCode: code };
    const [row] = await insertWithinPlan(this.db, this.plan, workspaceId, 'scenarios', (tx) => tx.insert(scenarios).values(values).returning());
    return toScenario(row!, null);
  }

  async get(workspaceId: string, id: string): Promise<ScenarioDetail> {
    const row = await this.row(workspaceId, id);
    const runs = await this.db
      .select(runColumns)
      .from(scenarioRuns)
      .where(eq(scenarioRuns.scenarioId, row.id))
      .orderBy(desc(scenarioRuns.createdAt), desc(scenarioRuns.id))
      .limit(SCENARIO_DETAIL_RUNS);
    const views = runs.map(toRun);
    return { ...toScenario(row, views[0] ?? null), runs: views };
  }

  /** Deletes the scenario; its runs, screenshots and traces go with it (foreign key cascade). */
  async remove(workspaceId: string, id: string): Promise<void> {
    const row = await this.row(workspaceId, id);
    await this.db.delete(scenarios).where(and(eq(scenarios.id, row.id), eq(scenarios.workspaceId, workspaceId)));
  }

  /**
   * Queues a run. The partial unique index allows one queued or running run per scenario, so two presses (or Run
   * and Run All, or two server instances) cannot start two; undefined when one is already there.
   */
  private async insertRun(workspaceId: string, userId: string, scenarioId: string, batchId?: string): Promise<ScenarioRun | undefined> {
    const [run] = await this.db
      .insert(scenarioRuns)
      .values({ scenarioId, workspaceId, userId, batchId })
      .onConflictDoNothing({ target: scenarioRuns.scenarioId, where: sql`state in ('queued', 'running')` })
      .returning();
    return run ? toRun({ ...run, hasScreenshot: false, hasTrace: false }) : undefined;
  }

  /** Queues a run of one of the workspace's scenarios, started by `userId`. */
  async queueRun(workspaceId: string, userId: string, id: string): Promise<ScenarioRun> {
    const row = await this.row(workspaceId, id);
    const run = await this.insertRun(workspaceId, userId, row.id);
    if (!run) throw new HttpError(409, 'This scenario is already running; wait for its run to finish.');
    return run;
  }

  /** Queues a run of each of the workspace's scenarios (of one project, when given) that is not already running. */
  async queueAll(workspaceId: string, userId: string, projectId: string | undefined): Promise<ScenarioRun[]> {
    const rows = await this.db
      .select({ id: scenarios.id })
      .from(scenarios)
      .where(projectId ? and(eq(scenarios.workspaceId, workspaceId), eq(scenarios.projectId, projectId)) : eq(scenarios.workspaceId, workspaceId))
      .orderBy(desc(scenarios.createdAt), desc(scenarios.id));
    if (rows.length === 0) throw new HttpError(400, 'No test scenarios to run. Create or generate a scenario first.');
    const runs: ScenarioRun[] = [];
    // One batch: the member gets one summary mail when the last of these runs has finished (server/scenarios/batches.ts).
    const batchId = randomUUID();
    for (const { id } of rows) {
      const run = await this.insertRun(workspaceId, userId, id, batchId);
      if (run) runs.push(run);
    }
    return runs;
  }

  /** The screenshot or trace bytes of one of the workspace's runs; 404 when there are none. */
  async artifact(workspaceId: string, runId: string, kind: 'screenshot' | 'trace'): Promise<Buffer> {
    if (!isUuid(runId)) throw new HttpError(404, 'Run not found');
    const [row] = await this.db
      .select({ data: kind === 'screenshot' ? scenarioRuns.screenshot : scenarioRuns.trace })
      .from(scenarioRuns)
      .where(and(eq(scenarioRuns.id, runId), eq(scenarioRuns.workspaceId, workspaceId)));
    if (!row) throw new HttpError(404, 'Run not found');
    if (!row.data) throw new HttpError(404, kind === 'screenshot' ? 'This run has no screenshot' : 'This run has no trace');
    return row.data;
  }
}

/** The project's test credentials from its sealed secret instructions; null when there are none or they cannot be opened. */
export function credentialsOf(sealer: Sealer, sealed: string | null): Credentials | null {
  if (!sealed) return null;
  let secret: string;
  try {
    secret = sealer.open(sealed);
  } catch {
    return null; // sealed under another install's key (a restored dump): the run goes without credentials
  }
  return parseCredentials(secret);
}
