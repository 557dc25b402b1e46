import type { Pool } from 'pg';
import { API_DAILY_LIMITS, type ApiPlan, type ApiUsage } from '../../common/api-keys';

/** The API plan of a workspace (its owner's, server/billing/plan-gate.ts); null: the plan has no API access. */
export type PlanOf = (workspaceId: string) => ApiPlan | null | Promise<ApiPlan | null>;

/** What one admission tells the caller: the limit (null: none), what remains, and seconds to the next UTC midnight. */
export interface Allowance {
  allowed: boolean;
  limit: number | null;
  remaining: number;
  resetSeconds: number;
}

interface WorkspaceCount {
  day: string;
  /** The member whose request was counted last here: the day's row names one member as its `user_id`. */
  userId: string;
  /** The total every instance has written to PostgreSQL, as last read. */
  shared: number;
  /** Admitted here and not yet written. */
  local: number;
  /** Being written right now (neither in `local` nor yet in `shared`). */
  flushing: number;
  readAt: number;
}

export const utcDay = (now: number) => new Date(now).toISOString().slice(0, 10);
/** Whole seconds until the next midnight UTC, at least 1. */
export function secondsToMidnight(now: number): number {
  const next = new Date(now);
  next.setUTCHours(24, 0, 0, 0);
  return Math.max(1, Math.ceil((next.getTime() - now) / 1000));
}

export interface UsageMeterOptions {
  flushEveryMs?: number;
  /** How old the shared total of a workspace idle here may be before an admission reads it again. */
  rereadAfterMs?: number;
  now?: () => number;
}

/**
 * Daily request counts of the public API per workspace and UTC day (table api_usage), shared by every instance and
 * by every key of the workspace (the plan's daily allowance is the workspace's).
 *
 * Requests are counted in memory and written every `flushEveryMs` in one statement (an upsert per workspace that
 * returns the new shared total). A request is admitted when the last known shared total plus this instance's
 * unwritten count is under the limit. Overshoot across instances: each of N instances may admit, before it reads
 * the others' writes, what remained at its last read; that read is at most one flush (200 ms) old for a workspace active
 * here and `rereadAfterMs` (250 ms) for one idle here, so past the limit at most what the other N-1 instances admit
 * in that quarter second gets through; a single instance never overshoots.
 */
export class UsageMeter {
  private readonly counts = new Map<string, WorkspaceCount>();
  private readonly timer: NodeJS.Timeout;
  private readonly now: () => number;
  private readonly rereadAfterMs: number;
  private flushing: Promise<void> | undefined;
  /** Flushes started so far: a read of the table that saw this number change may have overlapped one. */
  private flushes = 0;

  constructor(
    private readonly pool: Pool,
    private readonly planOf: PlanOf,
    options: UsageMeterOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.rereadAfterMs = options.rereadAfterMs ?? 250;
    this.timer = setInterval(() => void this.flush().catch(() => undefined), options.flushEveryMs ?? 200);
    this.timer.unref();
  }

  private async readShared(workspaceId: string, day: string): Promise<number> {
    const { rows } = await this.pool.query<{ requests: number }>({
      name: 'api_usage_read',
      text: 'select requests from api_usage where workspace_id = $1 and day = $2',
      values: [workspaceId, day],
    });
    return rows[0]?.requests ?? 0;
  }

  /** This workspace's count for today, read from PostgreSQL when unknown, of another day, or idle and old. */
  private async current(workspaceId: string, userId: string): Promise<WorkspaceCount> {
    const now = this.now();
    const day = utcDay(now);
    let count = this.counts.get(workspaceId);
    if (count && count.day === day && (count.local > 0 || count.flushing > 0 || now - count.readAt < this.rereadAfterMs)) return count;
    const shared = await this.readShared(workspaceId, day);
    count = this.counts.get(workspaceId);
    if (!count || count.day !== day) {
      count = { day, userId, shared, local: 0, flushing: 0, readAt: now };
      this.counts.set(workspaceId, count);
    } else {
      count.shared = Math.max(count.shared, shared);
      count.readAt = now;
    }
    return count;
  }

  /** Counts one request made in the workspace (by a key of `userId`) if the workspace's plan allows it today. */
  async admit(workspaceId: string, userId: string): Promise<Allowance> {
    const [plan, count] = await Promise.all([this.planOf(workspaceId), this.current(workspaceId, userId)]);
    const used = count.shared + count.flushing + count.local;
    const resetSeconds = secondsToMidnight(this.now());
    // The guards refuse a plan without API access before admitting (its 403); should one still get here, nothing is admitted.
    if (plan === null) return { allowed: false, limit: 0, remaining: 0, resetSeconds };
    const limit = API_DAILY_LIMITS[plan];
    if (limit !== null && used >= limit) return { allowed: false, limit, remaining: 0, resetSeconds };
    count.local++;
    count.userId = userId;
    return { allowed: true, limit, remaining: limit === null ? 0 : limit - used - 1, resetSeconds };
  }

  /** GET /api_usage: the plan (null: no API access), today's count (shared and this instance's unwritten), the limit and the reset time. */
  async usage(workspaceId: string): Promise<ApiUsage> {
    const now = this.now();
    const day = utcDay(now);
    const [plan, { shared, pending }] = await Promise.all([this.planOf(workspaceId), this.todaysCount(workspaceId, day)]);
    const resets = new Date(now);
    resets.setUTCHours(24, 0, 0, 0);
    return { plan, used_today: shared + pending, limit: plan === null ? null : API_DAILY_LIMITS[plan], resets_at: resets.toISOString() };
  }

  /**
   * The shared total and this instance's unwritten count, each request in exactly one of them. A flush commits its
   * batch before this instance learns it did (its `flushing` is cleared when the statement returns): a read that
   * overlaps a flush may already see the batch in the table while it is still counted as flushing. So the read is
   * taken while no flush is on its way, and taken again if one started meanwhile (flushes are 200 ms apart, a read
   * takes a millisecond: a second read is rare, a third rarer still).
   */
  private async todaysCount(workspaceId: string, day: string): Promise<{ shared: number; pending: number }> {
    for (;;) {
      await this.flushing?.catch(() => undefined);
      const before = this.flushes;
      const shared = await this.readShared(workspaceId, day);
      if (this.flushing || this.flushes !== before) continue;
      const count = this.counts.get(workspaceId);
      return { shared, pending: count?.day === day ? count.local + count.flushing : 0 };
    }
  }

  /** Writes every unwritten count in one statement and learns the shared totals back. */
  flush(): Promise<void> {
    if (!this.flushing) this.flushes++;
    this.flushing ??= this.write().finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  private async write(): Promise<void> {
    const batch = [...this.counts].filter(([, count]) => count.local > 0);
    for (const [workspaceId, count] of this.counts) if (count.local === 0 && count.day !== utcDay(this.now())) this.counts.delete(workspaceId);
    if (batch.length === 0) return;
    for (const [, count] of batch) {
      count.flushing = count.local;
      count.local = 0;
    }
    try {
      const { rows } = await this.pool.query<{ workspace_id: string; day: string; requests: number }>(
        `insert into api_usage (workspace_id, user_id, day, requests)
         select * from unnest($1::uuid[], $2::uuid[], $3::text[], $4::int[])
         on conflict (workspace_id, day) do update set requests = api_usage.requests + excluded.requests
         returning workspace_id, day, requests`,
        [batch.map(([workspaceId]) => workspaceId), batch.map(([, count]) => count.userId), batch.map(([, count]) => count.day), batch.map(([, count]) => count.flushing)],
      );
      const now = this.now();
      for (const row of rows) {
        const count = this.counts.get(row.workspace_id);
        if (count?.day !== row.day) continue;
        count.shared = row.requests;
        count.flushing = 0;
        count.readAt = now;
      }
    } catch (error) {
      // Not written: counted again with the next batch.
      for (const [, count] of batch) {
        count.local += count.flushing;
        count.flushing = 0;
      }
      throw error;
    }
  }

  /** Writes what is pending, then forgets a workspace's count (before its rows are deleted: an account's personal one). */
  async forget(workspaceId: string): Promise<void> {
    await this.flush().catch(() => undefined);
    this.counts.delete(workspaceId);
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush().catch(() => undefined);
  }
}

/**
 * The IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers-10/11, structured fields): the policy
 * `"daily";q=<limit>;w=86400` and the current state `"daily";r=<remaining>;t=<seconds to reset>`. None for a
 * plan without a daily limit.
 */
export function rateLimitHeaders(allowance: Allowance): Record<string, string> {
  if (allowance.limit === null) return {};
  return {
    'ratelimit-policy': `"daily";q=${allowance.limit};w=86400`,
    ratelimit: `"daily";r=${Math.max(0, allowance.remaining)};t=${allowance.resetSeconds}`,
  };
}
