import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { planLimitsResponseSchema, type PlanLimitsResponse } from '../../common/plan-limits';
import type { Db } from '../db';
import { workspaceOf } from '../workspaces/access';
import type { PlanGate } from './plan-gate';
import { held } from './plan-room';

/**
 * A workspace's plan (its owner's) as the server enforces it (server/billing/plan-gate.ts), and what the workspace
 * holds of what it counts; a user id names their personal one.
 */
export async function planLimitsOf(gate: Pick<PlanGate, 'planOf'>, db: Db, workspaceId: string): Promise<PlanLimitsResponse> {
  const [{ tier, subscribed, limits, apiPlan }, projects, scenarios] = await Promise.all([
    gate.planOf(workspaceId),
    held(db, 'projects', workspaceId),
    held(db, 'scenarios', workspaceId),
  ]);
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
    used: { projects, scenarios },
  };
}

/** GET /plan_limits: what the current workspace's plan allows, so screens offer only that and prompt the upgrade beside it. */
export function planLimitsRoutes(gate: Pick<PlanGate, 'planOf'>, db: Db) {
  return async (scope: FastifyInstance) => {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    app.get('/plan_limits', { schema: { response: { 200: planLimitsResponseSchema } } }, async (request) => planLimitsOf(gate, db, workspaceOf(request).id));
  };
}
