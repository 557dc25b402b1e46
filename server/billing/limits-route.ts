import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { planLimitsResponseSchema, type PlanLimitsResponse } from '../../common/plan-limits';
import { userOf } from '../auth/guard';
import type { PlanGate } from './plan-gate';

/** The signed-in account's plan as the server enforces it (server/billing/plan-gate.ts). */
export async function planLimitsOf(gate: Pick<PlanGate, 'planOf'>, userId: string): Promise<PlanLimitsResponse> {
  const { tier, subscribed, limits, apiPlan } = await gate.planOf(userId);
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

/** GET /plan_limits: what the caller's plan allows, so screens offer only that and prompt the upgrade beside it. */
export function planLimitsRoutes(gate: Pick<PlanGate, 'planOf'>) {
  return async (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    app.get('/plan_limits', { schema: { response: { 200: planLimitsResponseSchema } } }, async (request) => planLimitsOf(gate, userOf(request).id));
  };
}
