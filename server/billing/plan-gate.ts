import type { Pool } from 'pg';
import type { ApiPlan } from '../../common/api-keys';
import { tierOfProductName, type Tier } from '../../common/billing';
import { PLAN_LIMITS, PLAN_LIMIT_TEXTS, type PlanLimitName, type PlanLimits } from '../../common/plan-limits';
import { limitsOfPrice } from '../../common/plans';

/** A refusal by the account's plan: 403 with `{detail, plan_limit, tier}` (server/http-errors.ts). */
export class PlanLimitError extends Error {
  readonly statusCode = 403;
  readonly planLimit: { plan_limit: PlanLimitName; tier: Tier };
  constructor(limit: PlanLimitName, tier: Tier, detail: string) {
    super(detail);
    this.planLimit = { plan_limit: limit, tier };
  }
}

export interface AccountPlan {
  tier: Tier;
  /** False when no subscription is active (the server's unsubscribed tier applies). */
  subscribed: boolean;
  limits: PlanLimits;
  /** The public API's plan; null: no API access. */
  apiPlan: ApiPlan | null;
}

export interface PlanGateOptions {
  /** The tier of accounts without an active subscription (VIBEEVAL_UNSUBSCRIBED_TIER). */
  unsubscribedTier: Tier;
  /** The API plan of accounts without an active subscription (VIBEEVAL_API_PLAN); null: their tier's. */
  unsubscribedApiPlan: ApiPlan | null;
  /** How long an account's plan is reused before it is read again (0: every time). */
  ttlMs?: number;
  now?: () => number;
}

/**
 * Every plan limit is decided here: the account's tier comes from its active subscription (the product name of
 * its price), else from the server's configuration; the limits of each tier are common/plan-limits.ts. Reads
 * are cached briefly per workspace; billing calls `forget(userId)` after every change it makes.
 */
export class PlanGate {
  private readonly cache = new Map<string, { plan: AccountPlan; at: number; ownerId: string }>();
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(
    private readonly pool: Pool,
    private readonly options: PlanGateOptions,
  ) {
    this.ttlMs = options.ttlMs ?? 1000;
    this.now = options.now ?? Date.now;
  }

  /**
   * The plan of a workspace: its owner's subscription (a personal workspace's id is its owner's id, so an account's
   * own id names the plan of the account too).
   */
  async planOf(workspaceId: string): Promise<AccountPlan> {
    const cached = this.cache.get(workspaceId);
    if (cached && this.now() - cached.at < this.ttlMs) return cached.plan;
    const { rows } = await this.pool.query<{ owner_id: string; subscription_id: string | null; product_name: string | null; one_time: boolean | null }>({
      name: 'plan_gate_current',
      text: `with owner as (select coalesce((select owner_id from workspaces where id = $1), $1) as id)
             select owner.id as owner_id, s.id as subscription_id, p.product_name, p.interval is null as one_time from owner
               left join subscriptions s on s.user_id = owner.id and s.status = 'active'
               left join billing_plans p on p.price_id = s.price_id
             order by s.created_at nulls last limit 1`,
      values: [workspaceId],
    });
    const row = rows[0];
    const plan = row?.subscription_id ? this.subscribed(row.product_name, row.one_time === true) : this.unsubscribed();
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(workspaceId, { plan, at: this.now(), ownerId: row?.owner_id ?? workspaceId });
    return plan;
  }

  /** A one-time price (no interval) of the Pro tier is Lifetime Pro: Pro's limits with its own seats. */
  private subscribed(productName: string | null, oneTime: boolean): AccountPlan {
    // A price no longer listed still names a paid plan: the most generous reading keeps a paying account working.
    const tier: Tier = productName ? tierOfProductName(productName) : 'enterprise';
    const limits = limitsOfPrice(tier, oneTime);
    return { tier, subscribed: true, limits, apiPlan: limits.apiPlan };
  }

  private unsubscribed(): AccountPlan {
    const tier = this.options.unsubscribedTier;
    return { tier, subscribed: false, limits: PLAN_LIMITS[tier], apiPlan: this.options.unsubscribedApiPlan ?? PLAN_LIMITS[tier].apiPlan };
  }

  /** Drops the cached plan of a user and of every workspace they own (after a subscription or an owner changed). */
  forget(userId: string): void {
    for (const [id, entry] of this.cache) if (id === userId || entry.ownerId === userId) this.cache.delete(id);
  }

  /** Refuses adding one more of `kind` when the account already holds its plan's number. */
  async assertRoomFor(userId: string, kind: 'projects' | 'scenarios', count: () => Promise<number>): Promise<void> {
    const { tier, limits } = await this.planOf(userId);
    const limit = limits[kind];
    if (limit === null) return;
    if ((await count()) >= limit) throw new PlanLimitError(kind, tier, PLAN_LIMIT_TEXTS[kind](tier, limit));
  }

  /** Refuses API keys and /v1 use on a plan without API access; answers the API plan otherwise. */
  async assertApiAccess(userId: string): Promise<ApiPlan> {
    const { tier, apiPlan } = await this.planOf(userId);
    if (apiPlan === null) throw new PlanLimitError('api', tier, PLAN_LIMIT_TEXTS.api(tier));
    return apiPlan;
  }

  async assertReportFormat(userId: string, format: string): Promise<void> {
    const { tier, limits } = await this.planOf(userId);
    if (!(limits.reportFormats as readonly string[]).includes(format)) throw new PlanLimitError('report_format', tier, PLAN_LIMIT_TEXTS.report_format(tier, format));
  }

  async assertMonitorFrequency(userId: string, frequency: string): Promise<void> {
    const { tier, limits } = await this.planOf(userId);
    if (!(limits.monitorFrequencies as readonly string[]).includes(frequency)) {
      throw new PlanLimitError('monitor_frequency', tier, PLAN_LIMIT_TEXTS.monitor_frequency(tier, frequency));
    }
  }
}
