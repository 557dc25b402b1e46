import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type pg from 'pg';
import { WORKSPACE_HEADER, WORKSPACE_TEXTS, type WorkspaceRole } from '../../common/workspaces';
import type { RequestUser } from '../auth/guard';
import { HttpError } from '../http-errors';

/** The workspace a product API request acts in, and the caller's role there. */
export interface RequestWorkspace {
  id: string;
  role: WorkspaceRole;
  personal: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    workspace: RequestWorkspace | null;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** How long a membership answer is kept in this process. A removed member is refused within this time everywhere. */
const MEMBERSHIP_TTL_MS = 1_000;

/**
 * Decides which workspace a request acts in: the one its header names when the caller is a member (anything else
 * answers 404, the answer to any record of someone else's), else the caller's personal workspace, made on first
 * sight (hosted accounts have no local row until then).
 */
/** PostgreSQL's unique_violation. */
const UNIQUE_VIOLATION = '23505';

export class WorkspaceAccess {
  readonly #members = new Map<string, { at: number; membership: RequestWorkspace | null }>();
  readonly #personal = new Set<string>();
  /** Personal workspaces being made, by user id: requests that come meanwhile wait for the same insert. */
  readonly #ensuring = new Map<string, Promise<void>>();
  /**
   * The membership look-ups under way: the requests that come while one runs wait for its answer instead of asking
   * PostgreSQL again (a client with many requests in flight asked once per request each time the kept answer
   * expired). One started before a `forget` is neither joined nor kept after it (`#epoch`).
   */
  readonly #pending = new Map<string, { epoch: number; membership: Promise<RequestWorkspace | null> }>();
  #epoch = 0;

  constructor(private readonly pool: pg.Pool) {}

  async resolve(user: Pick<RequestUser, 'id' | 'email'>, requested: string | undefined): Promise<RequestWorkspace> {
    await this.ensurePersonal(user);
    const id = requested?.trim() || user.id;
    if (!UUID.test(id)) throw new HttpError(404, WORKSPACE_TEXTS.notFound);
    const membership = await this.membership(user.id, id.toLowerCase());
    if (!membership) throw new HttpError(404, WORKSPACE_TEXTS.notFound);
    return membership;
  }

  /** The workspace a request acts in when the answer is kept and says member (see `resolve`); undefined: ask `resolve`. */
  kept(user: Pick<RequestUser, 'id'>, requested: string | undefined): RequestWorkspace | undefined {
    if (!this.#personal.has(user.id)) return undefined;
    const id = requested?.trim() || user.id;
    if (!UUID.test(id)) return undefined;
    const kept = this.#members.get(`${user.id}:${id.toLowerCase()}`);
    return kept?.membership && Date.now() - kept.at < MEMBERSHIP_TTL_MS ? kept.membership : undefined;
  }

  /** The user's role in the workspace, or null when not a member (kept up to a second; `forget` drops it at once). */
  async membership(userId: string, workspaceId: string): Promise<RequestWorkspace | null> {
    const key = `${userId}:${workspaceId}`;
    const kept = this.#members.get(key);
    if (kept && Date.now() - kept.at < MEMBERSHIP_TTL_MS) return kept.membership;
    const pending = this.#pending.get(key);
    if (pending && pending.epoch === this.#epoch) return pending.membership;
    const lookUp = { epoch: this.#epoch, membership: this.#lookUp(key, userId, workspaceId) };
    this.#pending.set(key, lookUp);
    try {
      return await lookUp.membership;
    } finally {
      if (this.#pending.get(key) === lookUp) this.#pending.delete(key);
    }
  }

  async #lookUp(key: string, userId: string, workspaceId: string): Promise<RequestWorkspace | null> {
    const epoch = this.#epoch;
    const { rows } = await this.pool.query<{ role: WorkspaceRole; personal: boolean }>(
      `SELECT m.role, w.personal FROM workspace_members m JOIN workspaces w ON w.id = m.workspace_id
        WHERE m.user_id = $1 AND m.workspace_id = $2`,
      [userId, workspaceId],
    );
    const membership = rows[0] ? { id: workspaceId, role: rows[0].role, personal: rows[0].personal } : null;
    if (epoch !== this.#epoch) return membership;
    if (this.#members.size > 10_000) this.#members.clear();
    this.#members.set(key, { at: Date.now(), membership });
    return membership;
  }

  /**
   * Makes the user's personal workspace if it does not exist yet (its id is the user's id). A local account's
   * are made only while its users row is there, read under a lock the account's deletion waits for (and that
   * waits for the deletion): a request that passed the guard just before the deletion cannot bring them back.
   */
  async ensurePersonal(user: Pick<RequestUser, 'id' | 'email'> & { source?: RequestUser['source'] }): Promise<void> {
    if (this.#personal.has(user.id)) return;
    // A new account's first requests often come together (a client starting several at once): they share one.
    const under = this.#ensuring.get(user.id);
    if (under) return under;
    const ensuring = this.#makePersonal(user).finally(() => this.#ensuring.delete(user.id));
    this.#ensuring.set(user.id, ensuring);
    return ensuring;
  }

  async #makePersonal(user: Pick<RequestUser, 'id' | 'email'> & { source?: RequestUser['source'] }): Promise<void> {
    try {
      await this.#insertPersonal(user);
    } catch (error) {
      // Another server instance made the same rows at the same moment: the insert that lost the race on the
      // one-owner index (not the one ON CONFLICT names) fails; once the other has committed, a second one finds them.
      if ((error as { code?: string }).code !== UNIQUE_VIOLATION) throw error;
      await this.#insertPersonal(user);
    }
    if (this.#personal.size > 10_000) this.#personal.clear();
    this.#personal.add(user.id);
  }

  async #insertPersonal(user: Pick<RequestUser, 'id' | 'email'> & { source?: RequestUser['source'] }): Promise<void> {
    const account = user.source === 'local' ? 'SELECT id FROM users WHERE id = $1 FOR KEY SHARE' : 'SELECT $1::uuid AS id';
    const { rows } = await this.pool.query<{ made: boolean }>(
      `WITH account AS (${account}),
       made AS (
         INSERT INTO workspaces (id, name, owner_id, personal) SELECT id, 'Personal', id, true FROM account ON CONFLICT (id) DO NOTHING
       ),
       member AS (
         INSERT INTO workspace_members (workspace_id, user_id, email, role) SELECT id, id, $2, 'owner' FROM account
         ON CONFLICT (workspace_id, user_id) DO UPDATE SET email = EXCLUDED.email WHERE workspace_members.email <> EXCLUDED.email
       )
       SELECT EXISTS (SELECT 1 FROM account) AS made`,
      [user.id, user.email ?? ''],
    );
    if (!rows[0]?.made) throw new HttpError(401, 'Invalid access token');
  }

  /** Drops what this process keeps of a user's memberships (after a change of members, or the account's deletion). */
  forget(userId: string): void {
    this.#personal.delete(userId);
    this.#ensuring.delete(userId);
    for (const key of this.#members.keys()) if (key.startsWith(`${userId}:`)) this.#members.delete(key);
    for (const key of this.#pending.keys()) if (key.startsWith(`${userId}:`)) this.#pending.delete(key);
    this.#epoch++;
  }
}

/**
 * Sets `request.workspace` on every request of the guarded scope (after the bearer guard); a workspace the caller
 * is not a member of answers 404 with the product API's error shape.
 */
export function requireWorkspace(scope: FastifyInstance, access: WorkspaceAccess) {
  scope.decorateRequest('workspace', null);
  scope.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
    if (request.method === 'OPTIONS' || !request.user) return done();
    const header = request.headers[WORKSPACE_HEADER];
    const requested = Array.isArray(header) ? header[0] : header;
    // A membership checked moments ago answers without a promise.
    const kept = access.kept(request.user, requested);
    if (kept) {
      request.workspace = kept;
      return done();
    }
    access.resolve(request.user, requested).then(
      (workspace) => {
        request.workspace = workspace;
        done();
      },
      (error: unknown) => {
        if (!(error instanceof HttpError)) return done(error as Error);
        reply.code(error.statusCode).send({ detail: error.message });
      },
    );
  });
}

/** The workspace of a request in the guarded scope. */
export function workspaceOf(request: { workspace: RequestWorkspace | null }): RequestWorkspace {
  if (!request.workspace) throw Object.assign(new Error('Authentication required'), { statusCode: 401 });
  return request.workspace;
}
