import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PAGE_SIZES, pageQuerySchema } from '../../common/pagination';
import { createScenarioBodySchema, generateScenariosBodySchema, type ScenarioProposal } from '../../common/scenarios';
import type { AddressPolicy } from '../../engine/retrieval/address-policy';
import { ProposalError, proposeScenarios, type LlmSettings, type ScenarioBrowser } from '../../engine/scenarios';
import { userOf } from '../auth/guard';
import { workspaceOf } from '../workspaces/access';
import type { LiveBus } from '../live/bus';
import { setNextPage } from '../pagination';
import { liveRun } from './run-job';
import { type ScenarioService } from './service';
import { HttpError } from '../http-errors';

export interface ScenarioRouteDeps {
  scenarios: ScenarioService;
  live: LiveBus;
  enqueueRun(runId: string): Promise<void>;
  policy: AddressPolicy;
  rateLimit: number;
  llm: LlmSettings | null;
  /** A browser for one proposal call, closed after it. */
  openBrowser(): Promise<ScenarioBrowser>;
  /** How long a proposal may take before the call answers 504. */
  proposalTimeoutMs?: number;
  /** The engine's proposer (replaced in tests of the time limit). */
  proposeScenarios?: typeof proposeScenarios;
}

const idParams = z.object({ id: z.string() });
const listQuerySchema = pageQuerySchema(PAGE_SIZES.scenarios).extend({ project_id: z.uuid('project_id: must be a project id').optional() });
const runAllBodySchema = z
  .object({ project_id: z.uuid('project_id: must be a project id').nullish() })
  .strict()
  .nullish();
const PROPOSAL_TIMEOUT_MS = 60_000;

/** Browser test scenarios (spec section 7 and the calls beyond it), every record scoped to the current workspace. */
export function scenarioRoutes(deps: ScenarioRouteDeps) {
  const { scenarios, live } = deps;
  return async (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();

    app.get('/scenarios', { schema: { querystring: listQuerySchema } }, async (request, reply) => {
      const { limit, cursor, project_id: projectId } = request.query;
      const page = await scenarios.list(workspaceOf(request).id, { limit, cursor, projectId });
      setNextPage(request, reply, page.next);
      return page.items;
    });

    app.post('/scenarios', { schema: { body: createScenarioBodySchema }, config: { creationLimit: 'scenario' } }, async (request, reply) => {
      const scenario = await scenarios.create(workspaceOf(request).id, userOf(request).id, request.body);
      return reply.code(201).send(scenario);
    });

    // One proposal at a time per user in this process: each opens a browser.
    const proposing = new Set<string>();
    app.post('/scenarios/generate', { schema: { body: generateScenariosBodySchema }, config: { creationLimit: 'scenario_proposal' } }, async (request, reply) => {
      const userId = userOf(request).id;
      const project = await scenarios.project(workspaceOf(request).id, request.body.project_id);
      if (proposing.has(userId)) throw new HttpError(409, 'Scenarios are already being generated; wait for them to arrive.');
      proposing.add(userId);
      try {
        return { proposals: await propose(deps, project) };
      } catch (error) {
        // A 5xx answer says nothing by default (server/http-errors.ts); this one tells the user what to do.
        if (error instanceof HttpError && error.statusCode === 504) return reply.code(504).send({ detail: error.message });
        throw error;
      } finally {
        proposing.delete(userId);
      }
    });

    app.get('/scenario/:id', { schema: { params: idParams } }, async (request) => scenarios.get(workspaceOf(request).id, request.params.id));

    app.delete('/scenario/:id', { schema: { params: idParams } }, async (request, reply) => {
      await scenarios.remove(workspaceOf(request).id, request.params.id);
      return reply.code(204).send();
    });

    app.post('/scenario/:id/run', { schema: { params: idParams }, config: { creationLimit: 'scenario_run' } }, async (request, reply) => {
      const workspaceId = workspaceOf(request).id;
      const run = await scenarios.queueRun(workspaceId, userOf(request).id, request.params.id);
      await deps.enqueueRun(run.id);
      await live.publish(workspaceId, { type: 'scenario.run', scenario_id: run.scenario_id, run: liveRun(run) });
      return reply.code(202).send({ run_id: run.id });
    });

    app.post('/scenarios/run-all', { schema: { body: runAllBodySchema }, config: { creationLimit: 'scenario_run' } }, async (request, reply) => {
      const workspaceId = workspaceOf(request).id;
      const projectId = request.body?.project_id ?? undefined;
      if (projectId) await scenarios.project(workspaceId, projectId);
      const runs = await scenarios.queueAll(workspaceId, userOf(request).id, projectId);
      for (const run of runs) {
        await deps.enqueueRun(run.id);
        await live.publish(workspaceId, { type: 'scenario.run', scenario_id: run.scenario_id, run: liveRun(run) });
      }
      return reply.code(202).send({ runs: runs.map((run) => ({ scenario_id: run.scenario_id, run_id: run.id })) });
    });

    app.get('/scenario-run/:id/screenshot', { schema: { params: idParams } }, async (request, reply) => {
      const png = await scenarios.artifact(workspaceOf(request).id, request.params.id, 'screenshot');
      return reply.type('image/png').header('cache-control', 'private, no-store').send(png);
    });

    app.get('/scenario-run/:id/trace', { schema: { params: idParams } }, async (request, reply) => {
      const zip = await scenarios.artifact(workspaceOf(request).id, request.params.id, 'trace');
      return reply
        .type('application/zip')
        .header('content-disposition', `attachment; filename="trace-${request.params.id.slice(0, 8)}.zip"`)
        .header('cache-control', 'private, no-store')
        .send(zip);
    });
  };
}

/**
 * Proposals for a project's site, in a browser of their own that is closed afterwards, within a bounded time
 * (504 past it). Nothing is saved: the user picks which to keep.
 */
export async function propose(
  deps: Pick<ScenarioRouteDeps, 'openBrowser' | 'policy' | 'rateLimit' | 'llm' | 'proposalTimeoutMs' | 'proposeScenarios'>,
  project: Awaited<ReturnType<ScenarioService['project']>>,
): Promise<ScenarioProposal[]> {
  const timeoutMs = deps.proposalTimeoutMs ?? PROPOSAL_TIMEOUT_MS;
  const seconds = Math.ceil(timeoutMs / 1000);
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(new HttpError(504, `Generating scenarios took longer than ${seconds} second${seconds === 1 ? '' : 's'}; try again.`)), timeoutMs);
  const timedOut = new Promise<never>((_resolve, reject) => abort.signal.addEventListener('abort', () => reject(abort.signal.reason as Error), { once: true }));
  let browser: ScenarioBrowser | undefined;
  try {
    const work = (async () => {
      const opened = await deps.openBrowser();
      if (abort.signal.aborted) {
        await opened.close();
        throw abort.signal.reason as Error;
      }
      browser = opened;
      return (deps.proposeScenarios ?? proposeScenarios)({
        website: project.url,
        instructions: project.instructions,
        credentials: project.credentials,
        browser: opened.browser,
        policy: deps.policy,
        rateLimit: deps.rateLimit,
        llm: deps.llm,
        signal: abort.signal,
      });
    })();
    work.catch(() => undefined); // the timeout may answer first
    const proposed = await Promise.race([work, timedOut]);
    return proposed.map((proposal) => ({ website: proposal.website, actions: JSON.stringify(proposal.steps), summarized_actions: proposal.name }));
  } catch (error) {
    if (error instanceof ProposalError) throw new HttpError(422, error.message);
    throw error;
  } finally {
    clearTimeout(timer);
    if (!abort.signal.aborted) abort.abort();
    await browser?.close().catch(() => undefined);
  }
}
