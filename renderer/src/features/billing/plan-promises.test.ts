import { TIER_FEATURES, type Plan } from '@common/billing';
import { MARKETING_PLANS, marketingFeatures, type MarketingPlan } from '@common/marketing';
import {
  API_DAILY_LIMITS,
  LIFETIME_PRO_LIMITS,
  PLAN_LIMITS,
  PLAN_LIMIT_TEXTS,
  PLAN_MAPPING_TEXT,
  TIERS,
  TIER_RANK,
  limitsOfPrice,
  type ExportFormat,
  type MonitorFrequency,
  type PlanLimits,
  type Tier,
} from '@common/plans';
import { describe, expect, it } from 'vitest';
import { compareColumns, planCards, tierFeatures } from './billing-view';

// Every claim a pricing screen makes, read back from its words and held to the limits the server enforces
// (common/plans.ts PLAN_LIMITS, which server/billing/plan-gate.ts applies): the landing page's pricing section, the
// in-app plan cards, the Compare Plans table and every upgrade prompt. The words are parsed here on their own (not
// with the functions that wrote them), so a line that says more or less than the limit fails.

const FORMAT_WORDS = /\b(HTML|PDF|CSV|JSON|SARIF)\b/g;
const SCHEDULE_WORDS = /\b(daily|weekly|monthly)\b/gi;

const formatsIn = (text: string) => new Set([...text.matchAll(FORMAT_WORDS)].map((match) => match[1]!.toLowerCase()));
const schedulesIn = (text: string) => new Set([...text.matchAll(SCHEDULE_WORDS)].map((match) => match[1]!.toLowerCase()));
const allowedSchedules = (limits: PlanLimits) => new Set<string>(limits.monitorFrequencies.filter((frequency) => frequency !== 'off'));

/** '2 projects', 'Unlimited Projects', '13 AI agent scenarios' → the number, null for unlimited. */
function countIn(text: string): number | null {
  const match = /^(Unlimited|\d+)\b/i.exec(text);
  if (!match) throw new Error(`no count in '${text}'`);
  return /unlimited/i.test(match[1]!) ? null : Number(match[1]);
}

/** 'Single user', 'Up to 5 users', 'Unlimited users' → the seats. */
function seatsIn(text: string): number | null {
  if (text === 'Single user') return 1;
  if (text === 'Unlimited users') return null;
  const match = /^Up to (\d+) users$/.exec(text);
  if (!match) throw new Error(`no seats in '${text}'`);
  return Number(match[1]);
}

/** 'API access (1,000 requests/day)' → 1000, '(custom limits)' → null, 'No API access' → 'none'. */
function apiIn(text: string): number | null | 'none' {
  if (text === 'No API access') return 'none';
  const match = /^API access \((?:([\d,]+) requests\/day|custom limits)\)$/.exec(text);
  if (!match) throw new Error(`no API claim in '${text}'`);
  return match[1] ? Number(match[1].replace(/,/g, '')) : null;
}

const enforcedApi = (limits: PlanLimits) => (limits.apiPlan === null ? 'none' : API_DAILY_LIMITS[limits.apiPlan]);

/** The limits the server applies to a subscription of this marketing plan (a one-time price is Lifetime Pro). */
function enforcedFor(plan: MarketingPlan): PlanLimits {
  const tier: Tier = plan.id === 'basic' ? 'basic' : 'pro';
  return limitsOfPrice(tier, plan.period === 'one-time');
}

describe('the landing page pricing section', () => {
  // Spec sections 6 and 9: Basic 2 projects, single user; Pro unlimited, up to 5; Lifetime Pro unlimited, up to 10;
  // scenarios 2 / 13 / 13.
  const SPEC = { basic: { projects: 2, seats: 1, scenarios: 2 }, pro: { projects: null, seats: 5, scenarios: 13 }, lifetime: { projects: null, seats: 10, scenarios: 13 } };

  it.each(MARKETING_PLANS.map((plan) => [plan.name, plan] as const))('%s claims exactly what the server enforces', (_name, plan) => {
    const limits = enforcedFor(plan);
    const lines = marketingFeatures(plan);
    const line = (claim: string) => {
      const found = lines.find((feature) => feature.claim === claim);
      if (!found) throw new Error(`${plan.name} has no ${claim} line`);
      return found;
    };
    expect(countIn(line('projects').label)).toBe(limits.projects);
    expect(countIn(line('projects').label)).toBe(SPEC[plan.id].projects);
    expect(seatsIn(line('seats').label)).toBe(limits.seats);
    expect(seatsIn(line('seats').label)).toBe(SPEC[plan.id].seats);
    expect(countIn(line('scenarios').label)).toBe(limits.scenarios);
    expect(countIn(line('scenarios').label)).toBe(SPEC[plan.id].scenarios);
    expect(formatsIn(line('reports').label)).toEqual(new Set(limits.reportFormats));
    expect(line('reports').included).toBe(true);
    expect(schedulesIn(line('monitoring').label)).toEqual(allowedSchedules(limits));
    // API access is listed for every plan; it is struck through where the plan has none.
    expect(line('api').included).toBe(limits.apiPlan !== null);
    if (limits.apiPlan) expect(apiIn(line('api').label)).toBe(enforcedApi(limits));
    expect(line('schedules').included).toBe(allowedSchedules(limits).size > 1);
    // No line outside the limits names a report format or a schedule the plan lacks.
    for (const feature of lines.filter((candidate) => candidate.included)) {
      for (const format of formatsIn(feature.label)) expect(limits.reportFormats, `${plan.name}: '${feature.label}'`).toContain(format);
      for (const schedule of schedulesIn(feature.label)) expect(allowedSchedules(limits), `${plan.name}: '${feature.label}'`).toContain(schedule);
    }
  });

  it('lists what Basic lacks (spec section 9) as missing on Basic only', () => {
    const lacks = ['API access', 'CI/CD secret scanning', 'Automated remediation', 'Customizable schedules'];
    for (const plan of MARKETING_PLANS) {
      const missing = marketingFeatures(plan)
        .filter((feature) => !feature.included)
        .map((feature) => feature.label);
      expect(new Set(missing), plan.name).toEqual(new Set(plan.id === 'basic' ? lacks : []));
    }
  });

  it('says how Lifetime Pro and Enterprise relate to the plans the app bills', () => {
    expect(PLAN_MAPPING_TEXT).toContain(`up to ${LIFETIME_PRO_LIMITS.seats} users`);
    expect(PLAN_MAPPING_TEXT).toMatch(/Lifetime Pro is the Pro plan paid once/);
    expect(PLAN_MAPPING_TEXT).toMatch(/Enterprise/);
    expect({ ...LIFETIME_PRO_LIMITS, seats: PLAN_LIMITS.pro.seats }).toEqual(PLAN_LIMITS.pro);
  });
});

const plan = (name: string, amount: number, interval: Plan['interval'] = 'month'): Plan => ({
  price_id: `price_${name}`,
  product_id: `prod_${name}`,
  product_name: name,
  unit_amount: amount,
  currency: 'usd',
  interval,
});

describe('the in-app plan cards', () => {
  it("keep the spec's tier features word for word, and each of them is true of the tier's limits", () => {
    expect(TIER_FEATURES.basic).toEqual(['2 Projects', 'Basic Security Reports (HTML)', 'Common Vulnerability Detection', 'Monthly Monitoring']);
    expect(TIER_FEATURES.pro).toEqual(['Unlimited Projects', 'Full Reports (PDF, CSV, JSON)', 'Advanced Vulnerability Detection', 'Continuous Monitoring']);
    for (const tier of TIERS) {
      const limits = PLAN_LIMITS[tier];
      for (const feature of TIER_FEATURES[tier]) {
        if (/Projects$/.test(feature)) expect(countIn(feature), feature).toBe(limits.projects);
        for (const format of formatsIn(feature)) expect(limits.reportFormats, feature).toContain(format as ExportFormat);
        if (feature === 'Monthly Monitoring') expect(limits.monitorFrequencies).toEqual(['off', 'monthly']);
        // Continuous and real-time monitoring: every schedule, the most frequent included.
        if (/^(Continuous|Real-time) Monitoring$/.test(feature)) expect(limits.monitorFrequencies).toContain('daily');
      }
    }
  });

  it('add the lines of the limits the server enforces, Lifetime Pro with its own seats', () => {
    const cards = planCards([plan('Basic', 700), plan('Pro', 1500), plan('Enterprise', 4900), plan('Lifetime Pro', 14900, null)], null);
    for (const card of cards) {
      const limits = limitsOfPrice(card.tier, card.period === '/lifetime');
      const extra = card.features.slice(TIER_FEATURES[card.tier].length);
      expect(extra).toEqual(tierFeatures(card.tier, limits).slice(TIER_FEATURES[card.tier].length));
      const [seats, scenarios, reports, monitoring, api] = extra as [string, string, string, string, string | undefined];
      expect(seatsIn(seats), card.name).toBe(limits.seats);
      expect(countIn(scenarios), card.name).toBe(limits.scenarios);
      expect(formatsIn(reports), card.name).toEqual(new Set(limits.reportFormats));
      expect(schedulesIn(monitoring), card.name).toEqual(allowedSchedules(limits));
      // The API line only where the plan has API access (a card lists what the plan has).
      expect(api === undefined ? 'none' : apiIn(api), card.name).toBe(enforcedApi(limits));
      expect(extra).toHaveLength(limits.apiPlan ? 5 : 4);
    }
    expect(cards.find((card) => card.name === 'Lifetime Pro')?.features).toContain('Up to 10 users');
  });
});

describe('the Compare Plans table', () => {
  it('states every tier’s enforced limits in every row', () => {
    for (const column of compareColumns([])) {
      const limits = PLAN_LIMITS[column.tier];
      expect(column.projects === 'Unlimited' ? null : Number(column.projects)).toBe(limits.projects);
      expect(column.scenarios === 'Unlimited' ? null : Number(column.scenarios)).toBe(limits.scenarios);
      expect(seatsIn(column.seats)).toBe(limits.seats);
      expect(formatsIn(column.formats)).toEqual(new Set(limits.reportFormats));
      expect(schedulesIn(column.monitoring)).toEqual(allowedSchedules(limits));
      expect(apiIn(column.api)).toBe(enforcedApi(limits));
      expect(column.features).toEqual(TIER_FEATURES[column.tier]);
    }
  });
});

describe('every upgrade prompt', () => {
  /** The tier a prompt sends to, and that it really allows what was refused. */
  const target = (text: string) => {
    const match = /Upgrade to (Basic|Pro|Enterprise)\b/.exec(text);
    if (!match) throw new Error(`no upgrade target in '${text}'`);
    return TIERS.find((tier) => tier === match[1]!.toLowerCase())!;
  };

  it('names every report format the next plan adds, SARIF included, and a plan that has them', () => {
    for (const format of PLAN_LIMITS.pro.reportFormats.filter((candidate) => !PLAN_LIMITS.basic.reportFormats.includes(candidate))) {
      const refusal = PLAN_LIMIT_TEXTS.report_format('basic', format);
      const to = target(refusal);
      expect(TIER_RANK[to]).toBeGreaterThan(TIER_RANK.basic);
      const offered = formatsIn(refusal.slice(refusal.indexOf('Upgrade')));
      expect(offered).toEqual(new Set(PLAN_LIMITS[to].reportFormats.filter((candidate) => !PLAN_LIMITS.basic.reportFormats.includes(candidate))));
      expect(offered).toContain('sarif');
    }
    const prompt = PLAN_LIMIT_TEXTS.reportFormats('basic');
    expect(prompt).toBe('Your plan downloads reports as HTML only. Upgrade to Pro for PDF, CSV, JSON and SARIF.');
  });

  it('names the schedules the next plan adds, and says what this plan allows', () => {
    for (const frequency of ['daily', 'weekly'] as MonitorFrequency[]) {
      const refusal = PLAN_LIMIT_TEXTS.monitor_frequency('basic', frequency);
      const to = target(refusal);
      expect(PLAN_LIMITS[to].monitorFrequencies).toContain(frequency);
      expect(schedulesIn(refusal.slice(refusal.indexOf('Upgrade')))).toEqual(new Set(['daily', 'weekly']));
      expect(refusal).toContain('(monthly only)');
    }
  });

  it('sends API and seat refusals to a plan that has them', () => {
    expect(PLAN_LIMITS[target(PLAN_LIMIT_TEXTS.api('basic'))].apiPlan).not.toBeNull();
    expect(PLAN_LIMITS[target(PLAN_LIMIT_TEXTS.apiAccess('basic'))].apiPlan).not.toBeNull();
    expect(PLAN_LIMITS[target(PLAN_LIMIT_TEXTS.seats('basic', 1))].seats).toBeGreaterThan(1);
  });
});
