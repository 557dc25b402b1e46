import { z } from 'zod';
import { API_PLANS, EXPORT_FORMATS, MONITOR_FREQUENCIES, PLAN_LIMIT_NAMES, TIERS } from './plans';

// The limits, the refusals' words and the claims are common/plans.ts (no zod, so the landing page can import it);
// this file holds the HTTP shapes built on them.
export { PLAN_LIMITS, PLAN_LIMIT_TEXTS, type PlanLimitName, type PlanLimits } from './plans';

/** The 403 of a refused action: `detail` for people, `plan_limit` and `tier` so a screen can offer the upgrade. */
export const planLimitErrorSchema = z.object({ detail: z.string(), plan_limit: z.enum(PLAN_LIMIT_NAMES), tier: z.enum(['basic', 'pro', 'enterprise']) });
export type PlanLimitError = z.infer<typeof planLimitErrorSchema>;

/** GET /plan_limits (signed in): the account's tier and what it allows, so screens offer only what the plan permits. */
export const planLimitsResponseSchema = z.object({
  tier: z.enum(TIERS),
  /** False when no subscription is active (the server's tier for unsubscribed accounts applies). */
  subscribed: z.boolean(),
  limits: z.object({
    /** null: no limit. */
    projects: z.number().int().nullable(),
    scenarios: z.number().int().nullable(),
    /** The public API's plan; null: no API keys and no /v1 or MCP access. */
    api_plan: z.enum(API_PLANS).nullable(),
    report_formats: z.array(z.enum(EXPORT_FORMATS)),
    monitor_frequencies: z.array(z.enum(MONITOR_FREQUENCIES)),
    /** Members a workspace of this plan may have (owner included); null: no limit. */
    seats: z.number().int().nullable(),
  }),
  /** What the workspace holds of what the plan counts, so a screen says how many more fit before the limit bites. */
  used: z.object({ projects: z.number().int(), scenarios: z.number().int() }),
});
export type PlanLimitsResponse = z.infer<typeof planLimitsResponseSchema>;
