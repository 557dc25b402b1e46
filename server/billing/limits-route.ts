import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { planLimitsResponseSchema, type PlanLimitsResponse } from '../../common/plan-limits';
import { workspaceOf } from '../workspaces/access';
import type { PlanGate } from './plan-gate';

/** A workspace's plan (its owner's) as the server enforces it (server/billing/plan-gate.ts); a user id names their personal one. */
export async function planLimitsOf(gate: Pick<PlanGate, 'planOf'>, workspaceId: string): Promise<PlanLimitsResponse> {
  const { tier, subscribed, limits, apiPlan } = await gate.planOf(workspaceId);
  return {
    tier,
    subscribed,
    limits: {
      projects: limits.projects,
      scenarios: limits.scenarios,
      api_plan: apiPlan,
      report_formats: [...limits.reportFormats],
      monitor_frequencies: [...limits.monitorFrequencies],
      seats: limits.seats,
    },
  };
}

/** GET /plan_limits: what the current workspace's plan allows, so screens offer only that and prompt the upgrade beside it. */
export function planLimitsRoutes(gate: Pick<PlanGate, 'planOf'>) {
  return async (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    app.get('/plan_limits', { schema: { response: { 200: planLimitsResponseSchema } } }, async (request) => planLimitsOf(gate, workspaceOf(request).id));
  };
}
