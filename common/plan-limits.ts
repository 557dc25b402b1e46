import { z } from 'zod';
import { API_PLANS, type ApiPlan } from './api-keys';
import { TIER_NAMES, TIERS, type Tier } from './billing';
import { MONITOR_FREQUENCIES, type MonitorFrequency } from './continuous';
import { EXPORT_FORMATS } from './projects';

type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** What each tier allows, in one place: the server enforces it, the screens show it. null means no limit. */
export interface PlanLimits {
  /** Projects an account may hold. */
  projects: number | null;
  /** AI browser scenarios an account may hold. */
  scenarios: number | null;
  /** The public API's plan (daily request limit); null: no API keys and no /v1 access. */
  apiPlan: ApiPlan | null;
  /** Report and export formats. */
  reportFormats: readonly ExportFormat[];
  /** Monitoring schedules the project Overview may choose. */
  monitorFrequencies: readonly MonitorFrequency[];
  /** Members a workspace may have, its owner included (the marketing plans: Basic single user, Pro up to 5). */
  seats: number | null;
}

export const PLAN_LIMITS: Record<Tier, PlanLimits> = {
  basic: { projects: 2, scenarios: 2, apiPlan: null, reportFormats: ['html'], monitorFrequencies: ['off', 'weekly'], seats: 1 },
  pro: { projects: null, scenarios: 13, apiPlan: 'pro', reportFormats: ['html', 'pdf', 'csv', 'json', 'sarif'], monitorFrequencies: ['off', 'daily', 'weekly'], seats: 5 },
  enterprise: { projects: null, scenarios: null, apiPlan: 'enterprise', reportFormats: ['html', 'pdf', 'csv', 'json', 'sarif'], monitorFrequencies: ['off', 'daily', 'weekly'], seats: null },
};

export const PLAN_LIMIT_NAMES = ['projects', 'scenarios', 'api', 'report_format', 'monitor_frequency', 'seats'] as const;
export type PlanLimitName = (typeof PLAN_LIMIT_NAMES)[number];

/** The 403 of a refused action: `detail` for people, `plan_limit` and `tier` so a screen can offer the upgrade. */
export const planLimitErrorSchema = z.object({ detail: z.string(), plan_limit: z.enum(PLAN_LIMIT_NAMES), tier: z.enum(['basic', 'pro', 'enterprise']) });
export type PlanLimitError = z.infer<typeof planLimitErrorSchema>;

/** The words of each refusal. */
export const PLAN_LIMIT_TEXTS = {
  projects: (tier: Tier, limit: number) => `Your ${TIER_NAMES[tier]} plan includes ${limit} projects. Upgrade your plan to add more.`,
  scenarios: (tier: Tier, limit: number) => `Your ${TIER_NAMES[tier]} plan includes ${limit} AI browser scenarios. Upgrade your plan to add more.`,
  api: (tier: Tier) => `API access is not part of the ${TIER_NAMES[tier]} plan. Upgrade to Pro to use API keys.`,
  report_format: (tier: Tier, format: string) => `${format.toUpperCase()} reports are not part of the ${TIER_NAMES[tier]} plan (HTML only). Upgrade to Pro for PDF, CSV and JSON.`,
  monitor_frequency: (tier: Tier, frequency: string) => `A ${frequency} schedule is not part of the ${TIER_NAMES[tier]} plan. Upgrade to Pro for daily monitoring.`,
  seats: (tier: Tier, limit: number) =>
    limit === 1 ? `The ${TIER_NAMES[tier]} plan is for a single user. Upgrade to Pro to invite colleagues.` : `The ${TIER_NAMES[tier]} plan includes ${limit} seats, all taken or invited. Upgrade your plan to add more.`,
  /** The call to action shown beside a refusal. */
  upgrade: 'Upgrade plan',
  upgradeHref: '/dashboard/billing',
} as const;

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
});
export type PlanLimitsResponse = z.infer<typeof planLimitsResponseSchema>;
