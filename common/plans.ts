// THE definition of what each plan promises: the tiers the app bills, what each allows (the server enforces these
// numbers, the dashboard offers only what they permit), the marketing plans (Lifetime Pro is Pro paid once, with its
// own seats), every upgrade prompt's words and every claim the pricing screens make. Each screen derives its lines
// from here, so a marketing claim cannot say more than the server allows (common/plans.test.ts compares them).
// No zod here: the landing page's pricing section imports this file and must stay small (the schemas that use these
// constants live in billing.ts, continuous.ts, projects.ts, api-keys.ts and plan-limits.ts).

/** The in-app billing tiers (spec section 6), lowest first. */
export const TIERS = ['basic', 'pro', 'enterprise'] as const;
export type Tier = (typeof TIERS)[number];
export const TIER_NAMES: Record<Tier, string> = { basic: 'Basic', pro: 'Pro', enterprise: 'Enterprise' };
export const TIER_RANK: Record<Tier, number> = { basic: 1, pro: 2, enterprise: 3 };

/** Report and export formats. */
export const EXPORT_FORMATS = ['html', 'pdf', 'csv', 'json', 'sarif'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Monitoring schedules: monthly runs on the first chosen weekday of each month. */
export const MONITOR_FREQUENCIES = ['off', 'daily', 'weekly', 'monthly'] as const;
export type MonitorFrequency = (typeof MONITOR_FREQUENCIES)[number];

/** API plans (rate limits only): requests per UTC day. Enterprise is custom (null: no fixed daily limit). */
export const API_PLANS = ['free', 'pro', 'team', 'enterprise'] as const;
export type ApiPlan = (typeof API_PLANS)[number];
export const API_PLAN_NAMES: Record<ApiPlan, string> = { free: 'Free', pro: 'Pro', team: 'Team', enterprise: 'Enterprise' };
export const API_DAILY_LIMITS: Record<ApiPlan, number | null> = { free: 100, pro: 1_000, team: 5_000, enterprise: null };

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

const EVERY_FORMAT = EXPORT_FORMATS;
const EVERY_SCHEDULE = MONITOR_FREQUENCIES;

export const PLAN_LIMITS: Record<Tier, PlanLimits> = {
  // 'Monthly Monitoring' (spec section 3): a monthly schedule is Basic's one; 'customizable schedules' are Pro's.
  basic: { projects: 2, scenarios: 2, apiPlan: null, reportFormats: ['html'], monitorFrequencies: ['off', 'monthly'], seats: 1 },
  pro: { projects: null, scenarios: 13, apiPlan: 'pro', reportFormats: EVERY_FORMAT, monitorFrequencies: EVERY_SCHEDULE, seats: 5 },
  enterprise: { projects: null, scenarios: null, apiPlan: 'enterprise', reportFormats: EVERY_FORMAT, monitorFrequencies: EVERY_SCHEDULE, seats: null },
};

// --- The marketing plans (spec sections 6 and 9) and how they map to the tiers ----------------------------------

export type MarketingPlanId = 'basic' | 'pro' | 'lifetime';

/**
 * The marketing site sells Basic, Pro and Lifetime Pro; the app bills Basic, Pro and Enterprise. Lifetime Pro is the
 * Pro tier paid once, with up to 10 users (spec section 6): the server reads a one-time Pro price as these limits.
 * Enterprise is not sold on the site (teams ask sales); it lifts every limit.
 */
export const LIFETIME_PRO_LIMITS: PlanLimits = { ...PLAN_LIMITS.pro, seats: 10 };

export const MARKETING_PLAN_TIERS: Record<MarketingPlanId, { tier: Tier; limits: PlanLimits }> = {
  basic: { tier: 'basic', limits: PLAN_LIMITS.basic },
  pro: { tier: 'pro', limits: PLAN_LIMITS.pro },
  lifetime: { tier: 'pro', limits: LIFETIME_PRO_LIMITS },
};

/** The limits of a subscribed price: its tier's, except a one-time Pro price (Lifetime Pro), which has its own seats. */
export function limitsOfPrice(tier: Tier, oneTime: boolean): PlanLimits {
  return tier === 'pro' && oneTime ? LIFETIME_PRO_LIMITS : PLAN_LIMITS[tier];
}

/** How the two sets of plans relate, said on the pricing section and on Compare Plans. */
export const PLAN_MAPPING_TEXT = `Lifetime Pro is the Pro plan paid once: Pro's limits, for up to ${LIFETIME_PRO_LIMITS.seats} users. Enterprise, for larger teams, lifts every limit; it is sold in the app and by our sales team.`;

// --- Words ------------------------------------------------------------------------------------------------------

/** 'A', 'A and B', 'A, B and C'. */
export function listText(items: readonly string[], last = 'and'): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${last} ${items[items.length - 1]}`;
}

const formatName = (format: string) => format.toUpperCase();
const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const schedules = (limits: PlanLimits) => limits.monitorFrequencies.filter((frequency) => frequency !== 'off');

/** The first tier above `tier` that allows what `allows` asks, or null when none does. */
export function nextTierWith(tier: Tier, allows: (limits: PlanLimits) => boolean): Tier | null {
  return TIERS.find((candidate) => TIER_RANK[candidate] > TIER_RANK[tier] && allows(PLAN_LIMITS[candidate])) ?? null;
}

/** 'HTML only' or 'HTML, PDF, CSV, JSON and SARIF'. */
export function formatsText(formats: readonly string[]): string {
  return formats.length === 1 ? `${formatName(formats[0]!)} only` : listText(formats.map(formatName));
}

/** What the upgrade adds: the formats of the next tier allowing `format` that `tier` lacks ('PDF, CSV, JSON and SARIF'). */
function upgradeFor<T extends string>(tier: Tier, held: (limits: PlanLimits) => readonly T[], wanted?: T): { to: Tier; adds: T[] } | null {
  const have = held(PLAN_LIMITS[tier]);
  const to = nextTierWith(tier, (limits) => (wanted ? held(limits).includes(wanted) : held(limits).some((item) => !have.includes(item))));
  return to ? { to, adds: held(PLAN_LIMITS[to]).filter((item) => !have.includes(item)) } : null;
}

/** 'Upgrade to Pro for PDF, CSV, JSON and SARIF.' (every format the next plan adds), or the plain call when none does. */
function formatsUpgrade(tier: Tier, format?: ExportFormat): string {
  const upgrade = upgradeFor(tier, (limits) => limits.reportFormats, format);
  return upgrade ? `Upgrade to ${TIER_NAMES[upgrade.to]} for ${listText(upgrade.adds.map(formatName))}.` : 'Upgrade your plan for more.';
}

function schedulesUpgrade(tier: Tier, frequency?: MonitorFrequency): string {
  const upgrade = upgradeFor(tier, (limits) => limits.monitorFrequencies, frequency);
  return upgrade ? `Upgrade to ${TIER_NAMES[upgrade.to]} for ${listText(upgrade.adds)} monitoring.` : 'Upgrade your plan for more.';
}

const apiTier = (tier: Tier) => TIER_NAMES[nextTierWith(tier, (limits) => limits.apiPlan !== null) ?? 'enterprise'];
const seatsTier = (tier: Tier) => TIER_NAMES[nextTierWith(tier, (limits) => limits.seats === null || limits.seats > (PLAN_LIMITS[tier].seats ?? 0)) ?? 'enterprise'];

export const PLAN_LIMIT_NAMES = ['projects', 'scenarios', 'api', 'report_format', 'monitor_frequency', 'seats'] as const;
export type PlanLimitName = (typeof PLAN_LIMIT_NAMES)[number];

/** The words of each refusal, and of the prompts shown before one: each names what the next plan adds. */
export const PLAN_LIMIT_TEXTS = {
  projects: (tier: Tier, limit: number) => `Your ${TIER_NAMES[tier]} plan includes ${limit} projects. Upgrade your plan to add more.`,
  scenarios: (tier: Tier, limit: number) => `Your ${TIER_NAMES[tier]} plan includes ${limit} AI browser scenarios. Upgrade your plan to add more.`,
  api: (tier: Tier) => `API access is not part of the ${TIER_NAMES[tier]} plan. Upgrade to ${apiTier(tier)} to use API keys.`,
  report_format: (tier: Tier, format: string) =>
    `${formatName(format)} reports are not part of the ${TIER_NAMES[tier]} plan (${formatsText(PLAN_LIMITS[tier].reportFormats)}). ${formatsUpgrade(
      tier,
      EXPORT_FORMATS.find((known) => known === format),
    )}`,
  monitor_frequency: (tier: Tier, frequency: string) =>
    `A ${frequency} schedule is not part of the ${TIER_NAMES[tier]} plan (${listText(schedules(PLAN_LIMITS[tier]), 'or')} only). ${schedulesUpgrade(
      tier,
      MONITOR_FREQUENCIES.find((known) => known === frequency),
    )}`,
  seats: (tier: Tier, limit: number) =>
    limit === 1
      ? `The ${TIER_NAMES[tier]} plan is for a single user. Upgrade to ${seatsTier(tier)} to invite colleagues.`
      : `The ${TIER_NAMES[tier]} plan includes ${limit} seats, all taken or invited. Upgrade your plan to add more.`,
  /** Before a download is refused: the report generator on a plan without every format. */
  reportFormats: (tier: Tier) => `Your plan downloads reports as ${formatsText(PLAN_LIMITS[tier].reportFormats)}. ${formatsUpgrade(tier)}`,
  /** Before an API key is refused: the API page on a plan without API access. */
  apiAccess: (tier: Tier) => `API access is not part of your plan. Upgrade to ${apiTier(tier)} to use API keys, the public API and MCP.`,
  /** The call to action shown beside a refusal. */
  upgrade: 'Upgrade plan',
  upgradeHref: '/dashboard/billing',
} as const;

// --- The claims every pricing screen makes, from the limits ----------------------------------------------------------

export type ClaimKey = 'projects' | 'seats' | 'scenarios' | 'reports' | 'monitoring' | 'api';

export interface PlanClaim {
  key: ClaimKey;
  label: string;
  /** False: listed as missing (struck through on the pricing section). */
  included: boolean;
}

/** 'Unlimited' or the number, in a count's words. */
const count = (limit: number | null, one: string, many: string) => (limit === null ? `Unlimited ${many}` : `${limit} ${limit === 1 ? one : many}`);

/** The API line: 'API access (1,000 requests/day)', 'API access (custom limits)' or 'No API access'. */
export function apiClaim(limits: PlanLimits): string {
  if (!limits.apiPlan) return 'No API access';
  const daily = API_DAILY_LIMITS[limits.apiPlan];
  return `API access (${daily === null ? 'custom limits' : `${daily.toLocaleString('en-US')} requests/day`})`;
}

/** 'Monthly scheduled re-scans' or 'Daily, weekly or monthly scheduled re-scans'; 'No scheduled re-scans'. */
export function monitoringClaim(limits: PlanLimits): string {
  const allowed = schedules(limits);
  return allowed.length ? `${capitalize(listText(allowed, 'or'))} scheduled re-scans` : 'No scheduled re-scans';
}

/** 'Single user', 'Up to 5 users', 'Unlimited users'. */
export function seatsClaim(limits: PlanLimits): string {
  if (limits.seats === 1) return 'Single user';
  return limits.seats === null ? 'Unlimited users' : `Up to ${limits.seats} users`;
}

/** 'HTML reports' or 'HTML, PDF, CSV, JSON and SARIF reports'. */
export function reportsClaim(limits: PlanLimits): string {
  return `${listText(limits.reportFormats.map(formatName))} reports`;
}

/** The lines a plan's limits promise, in the order every pricing screen lists them. */
export function planClaims(limits: PlanLimits): PlanClaim[] {
  return [
    { key: 'projects', label: count(limits.projects, 'project', 'projects'), included: true },
    { key: 'seats', label: seatsClaim(limits), included: true },
    { key: 'scenarios', label: count(limits.scenarios, 'AI agent scenario', 'AI agent scenarios'), included: true },
    { key: 'reports', label: reportsClaim(limits), included: true },
    { key: 'monitoring', label: monitoringClaim(limits), included: schedules(limits).length > 0 },
    { key: 'api', label: limits.apiPlan ? apiClaim(limits) : 'API access', included: limits.apiPlan !== null },
  ];
}
