/**
 * Answers of a workspace's list routes, kept in memory until that workspace's records change.
 *
 * The dashboard asks for the same lists over and over (every tab, every focus, every live update), and each
 * answer costs a round trip to PostgreSQL and its serialisation. Here the serialised answer is kept per workspace
 * (every member sees the same lists) and dropped when the database says the workspace's projects, scans or reports
 * changed (a trigger notifies on commit, see
 * migration 0004 and `change-feed.ts`), whichever process or instance made the change.
 *
 * Safety nets, because a stale list is worse than a slow one:
 * - an answer loaded while the workspace's data changed is not kept (a load that started before an invalidation
 *   could carry the old rows);
 * - while the change feed is not listening (database restarting, connection lost) nothing is kept or served,
 *   and everything is dropped when it listens again;
 * - entries expire after `ttlMs` anyway, and at most `maxUsers` workspaces are kept (least recently used first out,
 *   lru-cache), each with at most 32 answers.
 *
 * A load under way is shared: the requests for the same list that come while it runs wait for it rather than each
 * asking PostgreSQL (many requests in flight all missed at once each time an answer expired). A request joins a
 * load only when no change of the workspace was heard since the load started.
 */
import { LRUCache } from 'lru-cache';

export interface CachedAnswer {
  /** The answer's bytes (routes keep them encoded, so that sending one costs no encoding) or its text. */
  body: Buffer | string;
  headers: Record<string, string>;
}

export interface ListCacheOptions {
  ttlMs?: number;
  maxUsers?: number;
  /** Answers larger than this are served but not kept. */
  maxBodyBytes?: number;
  now?: () => number;
}

/** A workspace's kept answers by list key, the least recently used dropped past 32. Expiry is ours (`now`). */
type UserAnswers = LRUCache<string, { answer: CachedAnswer; expires: number }>;
const MAX_ANSWERS_PER_USER = 32;

export class ListCache {
  private readonly users: LRUCache<string, UserAnswers>;
  /** Loads under way, by workspace and key, with the tick at their start. */
  private readonly loading = new Map<string, { started: number; answer: Promise<CachedAnswer> }>();
  /** Monotonic count of invalidations, and the count at each user's latest one. */
  private tick = 0;
  private readonly invalidatedAt = new Map<string, number>();
  private allInvalidatedAt = 0;
  private enabled = false;
  private readonly ttlMs: number;
  private readonly maxUsers: number;
  private readonly maxBodyBytes: number;
  private readonly now: () => number;

  constructor(options: ListCacheOptions = {}) {
    this.ttlMs = options.ttlMs ?? 2_000;
    this.maxUsers = options.maxUsers ?? 1_000;
    this.users = new LRUCache({ max: this.maxUsers });
    this.maxBodyBytes = options.maxBodyBytes ?? 512 * 1024;
    this.now = options.now ?? Date.now;
  }

  /** The change feed listens (true) or lost its connection (false): without it nothing is served from memory. */
  setListening(listening: boolean) {
    if (listening === this.enabled) return;
    this.enabled = listening;
    this.invalidateAll();
  }

  /** Drops the kept answers of a workspace (its records changed). */
  invalidate(workspaceId: string) {
    this.tick++;
    this.users.delete(workspaceId);
    this.invalidatedAt.delete(workspaceId);
    this.invalidatedAt.set(workspaceId, this.tick);
    // Forgetting old marks is safe only if in-flight loads can't be kept: treat it as a change of everyone.
    if (this.invalidatedAt.size > this.maxUsers * 4) {
      this.invalidatedAt.clear();
      this.allInvalidatedAt = this.tick;
    }
  }

  invalidateAll() {
    this.tick++;
    this.users.clear();
    this.invalidatedAt.clear();
    this.allInvalidatedAt = this.tick;
  }

  /** Whether the workspace's records changed (or everything was dropped) since `tick`. */
  private changedSince(workspaceId: string, tick: number): boolean {
    return (this.invalidatedAt.get(workspaceId) ?? 0) > tick || this.allInvalidatedAt > tick;
  }

  /** The kept answer for (workspace, key), or `load()`'s, kept when no change of the workspace happened meanwhile. */
  async get(workspaceId: string, key: string, load: () => Promise<CachedAnswer>): Promise<CachedAnswer> {
    if (!this.enabled || this.ttlMs === 0) return load();
    // get() marks the workspace (and the answer) as most recently used.
    const hit = this.users.get(workspaceId)?.get(key);
    if (hit && hit.expires > this.now()) return hit.answer;
    const loadKey = `${workspaceId}\n${key}`;
    const under = this.loading.get(loadKey);
    if (under && !this.changedSince(workspaceId, under.started)) return under.answer;
    const started = this.tick;
    const loading = { started, answer: load() };
    this.loading.set(loadKey, loading);
    let answer: CachedAnswer;
    try {
      answer = await loading.answer;
    } finally {
      if (this.loading.get(loadKey) === loading) this.loading.delete(loadKey);
    }
    const changed = this.changedSince(workspaceId, started);
    if (!this.enabled || changed || answer.body.length > this.maxBodyBytes) return answer;
    const kept: UserAnswers = this.users.get(workspaceId) ?? new LRUCache({ max: MAX_ANSWERS_PER_USER });
    kept.set(key, { answer, expires: this.now() + this.ttlMs });
    this.users.set(workspaceId, kept);
    return answer;
  }
}
