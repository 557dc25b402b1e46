import type { FastifyReply, FastifyRequest } from 'fastify';
import pg from 'pg';
import { RateLimiterPostgres } from 'rate-limiter-flexible';
import { takePoint } from '../rate-limit';
import { WorkspaceAccess } from '../workspaces/access';
import { apiKeyFromHeader, hashApiKey, type ApiKeyCaller } from './keys';
import { LRUCache } from 'lru-cache';

/** Revocations travel to every instance on this channel (payload: the revoked key's hash; a notify in a transaction goes at commit). */
export const REVOKED_CHANNEL = 'vibeeval_api_key_revoked';

export interface ApiKeyAuthOptions {
  /** How long a verified key is trusted from memory: the safety net should a revocation notice be missed. */
  ttlMs?: number;
  /** How often the last-used times are written (one statement for every key used since). */
  touchEveryMs?: number;
  maxEntries?: number;
  now?: () => number;
  /**
   * Whether the key's maker is still a member of its workspace, asked on every use (the server's one
   * WorkspaceAccess, whose answers last a second: a removed member's key is refused on every instance within it).
   */
  membership?: Pick<WorkspaceAccess, 'membership'>;
  /**
   * Wrong keys one client (its address) may present in the window, counted in PostgreSQL for every instance; past
   * it, the client's every key check is answered 429 until the window ends. Unset: no limit.
   */
  failures?: { perClient: number; windowSeconds: number };
}

/** Why a request to the public API is refused before it reaches a route: always a 401 with `WWW-Authenticate: Bearer`. */
export const API_KEY_REFUSALS = {
  missing: 'An API key is required: send it as `Authorization: Bearer vb_live_…`. Create one in the dashboard under API.',
  session: 'This API takes an API key, not a dashboard session token: send `Authorization: Bearer vb_live_…`. Create one in the dashboard under API.',
  invalid: 'This API key is not valid: it was revoked or never existed.',
  /** The key's maker left its workspace or was removed from it: the key acts for nobody there any more. */
  formerMember: 'This API key is not valid any more: the member who created it is no longer in its workspace.',
} as const;

/** The answer (429) to a client that presented too many wrong keys. */
export const tooManyWrongKeys = (seconds: number) => `Too many requests with an invalid API key from this address. Try again in ${seconds} s.`;

export type ApiKeyVerdict = { caller: ApiKeyCaller } | { refusal: string };

/**
 * Verifies `vb_live_` keys for the public API (/v1) and the MCP endpoint.
 *
 * A verified key is kept in memory (keyed by its hash) for `ttlMs`, so the hot path costs one SHA-256 and a map
 * lookup. Revocation must still be immediate: deleting a key drops it here at once and, through NOTIFY on
 * `vibeeval_api_key_revoked`, on every other instance; while that notice channel is not listening nothing is
 * served from memory. Uses are written to `last_used_at` in batches (one UPDATE per `touchEveryMs`).
 *
 * A key acts in the workspace it was made in, for the member who made it, and only while that member still belongs
 * to the workspace: the lookup joins the membership, and every use (a cached one too) asks `membership` again, so a
 * removal needs no notice of its own to reach every instance.
 */
export class ApiKeyAuth {
  private readonly cache: LRUCache<string, { caller: ApiKeyCaller; expires: number }>;
  private readonly used = new Set<string>();
  private readonly ttlMs: number;
  private readonly now: () => number;
  private readonly membership: Pick<WorkspaceAccess, 'membership'>;
  private readonly touchTimer: NodeJS.Timeout;
  private listener: pg.Client | undefined;
  private listening = false;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;
  /** Counts invalidations, so that a lookup that raced a revocation is not kept. */
  private tick = 0;
  private readonly failures: RateLimiterPostgres | undefined;
  /**
   * Clients over the wrong-key limit, with when their block ends (ms): refused here before any lookup, so a flood of
   * guesses costs one map read each and a valid key of theirs gains them nothing (no answer tells a right key from a
   * wrong one while blocked). Other instances learn of a block at the client's next wrong key there.
   */
  private readonly blocked: LRUCache<string, number>;

  constructor(
    private readonly pool: pg.Pool,
    private readonly databaseUrl: string | null,
    options: ApiKeyAuthOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 10_000;
    const max = options.maxEntries ?? 10_000;
    this.cache = new LRUCache({ max });
    this.blocked = new LRUCache({ max });
    this.now = options.now ?? Date.now;
    this.membership = options.membership ?? new WorkspaceAccess(pool);
    this.touchTimer = setInterval(() => void this.flushLastUsed(), options.touchEveryMs ?? 1_000);
    this.touchTimer.unref();
    if (options.failures) {
      this.failures = new RateLimiterPostgres({
        storeClient: pool,
        storeType: 'pool',
        tableName: 'rate_limits',
        tableCreated: true,
        keyPrefix: 'api_key_fail_ip',
        points: options.failures.perClient,
        duration: options.failures.windowSeconds,
      });
    }
  }

  /** Starts listening for revocations made by other instances (without it, verifications are never cached). */
  async start(): Promise<void> {
    if (!this.databaseUrl) return;
    const client = new pg.Client({ connectionString: this.databaseUrl });
    client.on('notification', (note) => {
      if (note.channel === REVOKED_CHANNEL && note.payload) this.forget(note.payload);
    });
    client.on('error', () => undefined); // followed by 'end', which reconnects
    client.on('end', () => {
      if (this.listener !== client) return;
      this.setListening(false);
      this.listener = undefined;
      this.reconnect();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${REVOKED_CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.closed) return void client.end().catch(() => undefined);
    this.listener = client;
    this.setListening(true);
  }

  private reconnect() {
    if (this.closed || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.start().catch(() => this.reconnect());
    }, 1_000);
    this.retry.unref();
  }

  private setListening(value: boolean) {
    this.listening = value;
    this.tick++;
    this.cache.clear();
  }

  /** Drops a key (by hash) from this instance's memory. */
  forget(keyHash: string) {
    this.tick++;
    this.cache.delete(keyHash);
  }

  /** After a key is deleted: forgotten here at once, and on every other instance through NOTIFY. */
  async revoked(keyHash: string): Promise<void> {
    this.forget(keyHash);
    await this.pool.query('select pg_notify($1, $2)', [REVOKED_CHANNEL, keyHash]);
  }

  /** The caller of an Authorization header, or why it is refused. */
  async verify(authorization: string | undefined): Promise<ApiKeyVerdict> {
    const key = apiKeyFromHeader(authorization);
    if (!key) {
      const token = /^Bearer\s+(\S+)/i.exec(authorization ?? '')?.[1];
      return { refusal: token?.startsWith('eyJ') ? API_KEY_REFUSALS.session : token ? API_KEY_REFUSALS.invalid : API_KEY_REFUSALS.missing };
    }
    const hash = hashApiKey(key);
    const hit = this.cache.get(hash);
    if (hit && hit.expires > this.now()) return this.admitted(hit.caller);
    const started = this.tick;
    const { rows } = await this.pool.query<{ id: string; user_id: string; workspace_id: string; member: boolean }>({
      name: 'api_key_by_hash',
      text: `select k.id, k.user_id, k.workspace_id, exists (select 1 from workspace_members m where m.workspace_id = k.workspace_id and m.user_id = k.user_id) as member
               from api_keys k where k.key_hash = $1`,
      values: [hash],
    });
    const row = rows[0];
    if (!row) return { refusal: API_KEY_REFUSALS.invalid };
    if (!row.member) return { refusal: API_KEY_REFUSALS.formerMember };
    const caller: ApiKeyCaller = { userId: row.user_id, workspaceId: row.workspace_id, keyId: row.id };
    this.used.add(caller.keyId);
    if (this.listening && this.ttlMs > 0 && this.tick === started) {
      this.cache.set(hash, { caller, expires: this.now() + this.ttlMs });
    }
    return { caller };
  }

  /** A key known from memory: still its maker's to use only while they are a member of its workspace. */
  private async admitted(caller: ApiKeyCaller): Promise<ApiKeyVerdict> {
    if (!(await this.membership.membership(caller.userId, caller.workspaceId))) return { refusal: API_KEY_REFUSALS.formerMember };
    this.used.add(caller.keyId);
    return { caller };
  }

  /**
   * For a route or hook: the caller, or null once a 401 with `WWW-Authenticate: Bearer` and `{detail}` was sent.
   */
  async authenticate(request: FastifyRequest, reply: FastifyReply): Promise<ApiKeyCaller | null> {
    const client = request.ip;
    const until = this.blocked.get(client);
    if (until !== undefined && until > this.now()) return this.refuseFlood(reply, until);
    if (until !== undefined) this.blocked.delete(client);
    const verdict = await this.verify(request.headers.authorization);
    if ('caller' in verdict) return verdict.caller;
    // Only guesses count: a wrong key, not a missing one nor a real key whose maker left (neither is guessing).
    if (this.failures && verdict.refusal === API_KEY_REFUSALS.invalid) {
      const retryAfter = await takePoint(this.failures, client);
      if (retryAfter !== null) {
        const ends = this.now() + retryAfter * 1000;
        this.blocked.set(client, ends);
        return this.refuseFlood(reply, ends);
      }
    }
    await reply.code(401).header('WWW-Authenticate', 'Bearer').send({ detail: verdict.refusal });
    return null;
  }

  private async refuseFlood(reply: FastifyReply, until: number): Promise<null> {
    const seconds = Math.max(1, Math.ceil((until - this.now()) / 1000));
    await reply
      .code(429)
      .header('Retry-After', String(seconds))
      .send({ detail: tooManyWrongKeys(seconds) });
    return null;
  }

  /** Writes the last-used time of every key used since the previous write. */
  async flushLastUsed(): Promise<void> {
    if (this.used.size === 0) return;
    const ids = [...this.used];
    this.used.clear();
    await this.pool.query('update api_keys set last_used_at = now() where id = any($1::uuid[])', [ids]).catch(() => {
      for (const id of ids) this.used.add(id); // the database is away: try again next time
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.touchTimer);
    if (this.retry) clearTimeout(this.retry);
    await this.flushLastUsed();
    const listener = this.listener;
    this.listener = undefined;
    this.listening = false;
    await listener?.end().catch(() => undefined);
  }
}
