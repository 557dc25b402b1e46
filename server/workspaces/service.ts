import type pg from 'pg';
import { PLAN_LIMIT_TEXTS } from '../../common/plan-limits';
import { WORKSPACE_TEXTS, type Workspace, type WorkspaceMember, type WorkspaceRole } from '../../common/workspaces';
import { PlanLimitError, type PlanGate } from '../billing/plan-gate';
import { cursorTimestampSql, decodeCursor, pageOf } from '../pagination';
import { deleteWorkspaceRecords, inTransaction, lockWorkspace } from './records';
import { HttpError } from '../http-errors';

// Workspaces, their members, leaving, removal and the transfer of ownership. Every method takes the caller's id
// and answers 404 'Workspace not found' for a workspace the caller is not a member of (as for any record of
// someone else's), 403 for a member asking what only the owner may do.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Sorts first in a list ordered by joining time: a personal workspace in the list of workspaces, the owner in the list of members. */
const FIRST_AT = `timestamptz '1970-01-01 00:00:00+00'`;
/** No text of the contract names this refusal: the screens never offer it (the personal workspace has no Delete). */
export const PERSONAL_NOT_DELETED = 'Your personal workspace cannot be deleted';

export interface Caller {
  id: string;
  email: string;
}

export interface WorkspaceServiceDeps {
  pool: pg.Pool;
  plans: PlanGate;
  /** After a membership change: this process's cached memberships of the user are dropped (WorkspaceAccess.forget). */
  forgetMember(userId: string): void;
  /** After a deletion: the deleted API keys leave every instance's cache (ApiKeyAuth.revoked). */
  revokeApiKey?(keyHash: string): Promise<void>;
}

interface WorkspaceRow {
  id: string;
  name: string;
  personal: boolean;
  role: WorkspaceRole;
  owner_id: string;
  created_at: string;
  seats_used: number;
  k_at: string;
}

/** The columns of a workspace as one member sees it (`m` the member's row, `w` the workspace). */
const WORKSPACE_COLUMNS = `w.id, w.name, w.personal, m.role, w.owner_id, to_char(w.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at,
  ((select count(*) from workspace_members x where x.workspace_id = w.id)
   + (select count(*) from workspace_invitations i where i.workspace_id = w.id and i.accepted_at is null and i.revoked_at is null and i.expires_at > now()))::int as seats_used`;

export const notFound = () => new HttpError(404, WORKSPACE_TEXTS.notFound);
const conflict = (text: string) => new HttpError(409, text);

export class WorkspaceService {
  constructor(private readonly deps: WorkspaceServiceDeps) {}

  /** The caller's workspaces: the personal one first, then by joining time. */
  async list(caller: Caller, { limit, cursor }: { limit: number; cursor?: string }): Promise<{ items: Workspace[]; next: string | null }> {
    const after = decodeCursor(cursor);
    const sortKey = `case when w.personal then ${FIRST_AT} else m.joined_at end`;
    const { rows } = await this.deps.pool.query<WorkspaceRow>(
      `select ${WORKSPACE_COLUMNS}, ${cursorTimestampSql(sortKey)} as k_at
         from workspace_members m join workspaces w on w.id = m.workspace_id
        where m.user_id = $1 ${after ? `and (${sortKey}, w.id) > ($3::timestamptz, $4::uuid)` : ''}
        order by ${sortKey}, w.id limit $2`,
      after ? [caller.id, limit + 1, after.at, after.id] : [caller.id, limit + 1],
    );
    const page = pageOf(rows, limit, (row) => ({ at: row.k_at, id: row.id }));
    return { items: await Promise.all(page.items.map((row) => this.#answer(row))), next: page.next };
  }

  /** A workspace of the caller's (404 for any other). */
  async get(caller: Caller, workspaceId: string, client: pg.Pool | pg.PoolClient = this.deps.pool): Promise<Workspace> {
    if (!UUID.test(workspaceId)) throw notFound();
    const { rows } = await client.query<WorkspaceRow>(
      `select ${WORKSPACE_COLUMNS}, '' as k_at from workspace_members m join workspaces w on w.id = m.workspace_id where m.user_id = $1 and w.id = $2`,
      [caller.id, workspaceId],
    );
    if (!rows[0]) throw notFound();
    return this.#answer(rows[0]);
  }

  /** The caller's role in a workspace: 404 for a non-member, 403 for a member when `owner` is asked. */
  async roleIn(client: pg.Pool | pg.PoolClient, caller: Caller, workspaceId: string, need?: 'owner'): Promise<{ role: WorkspaceRole; personal: boolean; name: string }> {
    if (!UUID.test(workspaceId)) throw notFound();
    const { rows } = await client.query<{ role: WorkspaceRole; personal: boolean; name: string }>(
      `select m.role, w.personal, w.name from workspace_members m join workspaces w on w.id = m.workspace_id where m.user_id = $1 and w.id = $2`,
      [caller.id, workspaceId],
    );
    const found = rows[0];
    if (!found) throw notFound();
    if (need === 'owner' && found.role !== 'owner') throw new HttpError(403, WORKSPACE_TEXTS.ownerOnly);
    return found;
  }

  /**
   * The workspace the caller last chose (GET /workspaces/last): the personal one (their id) when none was chosen or
   * they have left the one chosen since, so a sign-in elsewhere never starts in a workspace that would answer 404.
   */
  async lastUsed(caller: Caller): Promise<string> {
    const { rows } = await this.deps.pool.query<{ id: string }>(
      `select p.last_workspace_id as id from user_preferences p
       join workspace_members m on m.workspace_id = p.last_workspace_id and m.user_id = p.user_id
       where p.user_id = $1`,
      [caller.id],
    );
    return rows[0]?.id ?? caller.id;
  }

  /** Keeps `workspaceId` as the caller's last choice (PUT /workspaces/last); 404 when the caller is not its member. */
  async useLast(caller: Caller, workspaceId: string): Promise<void> {
    if (!UUID.test(workspaceId)) throw notFound();
    // One statement: the membership is checked where the choice is written (null keeps the personal one).
    const { rowCount } = await this.deps.pool.query(
      `insert into user_preferences (user_id, last_workspace_id)
       select $1::uuid, case when w.personal then null else w.id end
       from workspace_members m join workspaces w on w.id = m.workspace_id
       where m.user_id = $1::uuid and m.workspace_id = $2::uuid
       on conflict (user_id) do update set last_workspace_id = excluded.last_workspace_id, updated_at = now()`,
      [caller.id, workspaceId.toLowerCase()],
    );
    if (!rowCount) throw notFound();
  }

  /** A new shared workspace; the caller is its owner. */
  async create(caller: Caller, name: string): Promise<Workspace> {
    const id = await inTransaction(this.deps.pool, async (client) => {
      const { rows } = await client.query<{ id: string }>(`insert into workspaces (name, owner_id, personal) values ($1, $2, false) returning id`, [name, caller.id]);
      const made = rows[0]!.id;
      await client.query(`insert into workspace_members (workspace_id, user_id, email, role) values ($1, $2, $3, 'owner')`, [made, caller.id, caller.email]);
      return made;
    });
    this.deps.forgetMember(caller.id);
    return this.get(caller, id);
  }

  /** Renames a workspace (owner only; the personal one too: its name is its owner's to choose). */
  async rename(caller: Caller, workspaceId: string, name: string): Promise<Workspace> {
    await this.roleIn(this.deps.pool, caller, workspaceId, 'owner');
    await this.deps.pool.query('update workspaces set name = $2, updated_at = now() where id = $1', [workspaceId, name]);
    return this.get(caller, workspaceId);
  }

  /** Deletes a shared workspace and every record in it (owner only). */
  async remove(caller: Caller, workspaceId: string): Promise<void> {
    const members = await inTransaction(this.deps.pool, async (client) => {
      const { personal } = await this.roleIn(client, caller, workspaceId, 'owner');
      if (personal) throw conflict(PERSONAL_NOT_DELETED);
      await lockWorkspace(client, workspaceId);
      const { rows } = await client.query<{ user_id: string }>('select user_id from workspace_members where workspace_id = $1', [workspaceId]);
      const { apiKeyHashes } = await deleteWorkspaceRecords(client, workspaceId);
      return { userIds: rows.map((row) => row.user_id), apiKeyHashes };
    });
    for (const userId of members.userIds) this.deps.forgetMember(userId);
    for (const hash of members.apiKeyHashes) await this.deps.revokeApiKey?.(hash);
  }

  /** The members: the owner first, then by joining time. */
  async members(caller: Caller, workspaceId: string, { limit, cursor }: { limit: number; cursor?: string }): Promise<{ items: WorkspaceMember[]; next: string | null }> {
    await this.roleIn(this.deps.pool, caller, workspaceId);
    const after = decodeCursor(cursor);
    const sortKey = `case when m.role = 'owner' then ${FIRST_AT} else m.joined_at end`;
    const { rows } = await this.deps.pool.query<WorkspaceMember & { k_at: string }>(
      `select m.user_id, m.email, m.role, to_char(m.joined_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as joined_at, ${cursorTimestampSql(sortKey)} as k_at
         from workspace_members m
        where m.workspace_id = $1 ${after ? `and (${sortKey}, m.user_id) > ($3::timestamptz, $4::uuid)` : ''}
        order by ${sortKey}, m.user_id limit $2`,
      after ? [workspaceId, limit + 1, after.at, after.id] : [workspaceId, limit + 1],
    );
    const page = pageOf(rows, limit, (row) => ({ at: row.k_at, id: row.user_id }));
    return { items: page.items.map(({ k_at: _key, ...member }) => member), next: page.next };
  }

  /** The owner removes a member (not themself: they transfer ownership first). */
  async removeMember(caller: Caller, workspaceId: string, userId: string): Promise<void> {
    await inTransaction(this.deps.pool, async (client) => {
      await this.roleIn(client, caller, workspaceId, 'owner');
      if (userId.toLowerCase() === caller.id) throw conflict(WORKSPACE_TEXTS.ownerCannotLeave);
      if (!UUID.test(userId)) throw new HttpError(404, WORKSPACE_TEXTS.memberNotFound);
      await lockWorkspace(client, workspaceId);
      const removed = await client.query(`delete from workspace_members where workspace_id = $1 and user_id = $2 and role = 'member'`, [workspaceId, userId]);
      if (!removed.rowCount) throw new HttpError(404, WORKSPACE_TEXTS.memberNotFound);
    });
    this.deps.forgetMember(userId.toLowerCase());
  }

  /** A member leaves (not from their personal workspace, not as its owner). */
  async leave(caller: Caller, workspaceId: string): Promise<void> {
    await inTransaction(this.deps.pool, async (client) => {
      const { role, personal } = await this.roleIn(client, caller, workspaceId);
      if (personal) throw conflict(WORKSPACE_TEXTS.personalNotLeft);
      if (role === 'owner') throw conflict(WORKSPACE_TEXTS.ownerCannotLeave);
      await lockWorkspace(client, workspaceId);
      await client.query(`delete from workspace_members where workspace_id = $1 and user_id = $2 and role = 'member'`, [workspaceId, caller.id]);
    });
    this.deps.forgetMember(caller.id);
  }

  /**
   * The owner makes a member the owner, in one transaction; the old owner stays as a member. The workspace's plan
   * becomes the new owner's, so a new owner whose plan holds fewer seats than the members is refused.
   */
  async transfer(caller: Caller, workspaceId: string, userId: string): Promise<Workspace> {
    const target = userId.toLowerCase();
    await inTransaction(this.deps.pool, async (client) => {
      const { personal } = await this.roleIn(client, caller, workspaceId, 'owner');
      if (personal) throw conflict(WORKSPACE_TEXTS.personalNotShared);
      await lockWorkspace(client, workspaceId);
      if (target === caller.id) return;
      const { rows } = await client.query<{ members: number; is_member: boolean }>(
        `select count(*)::int as members, bool_or(user_id = $2) as is_member from workspace_members where workspace_id = $1`,
        [workspaceId, target],
      );
      if (!rows[0]?.is_member) throw conflict(WORKSPACE_TEXTS.transferToMember);
      // The new owner's own plan: a personal workspace's id is its owner's id.
      const { tier, limits } = await this.deps.plans.planOf(target);
      if (limits.seats !== null && rows[0].members > limits.seats) throw new PlanLimitError('seats', tier, PLAN_LIMIT_TEXTS.seats(tier, limits.seats));
      // One owner at every moment (the unique index is checked per statement): the old owner steps down first.
      await client.query(`update workspace_members set role = 'member' where workspace_id = $1 and user_id = $2`, [workspaceId, caller.id]);
      await client.query(`update workspace_members set role = 'owner' where workspace_id = $1 and user_id = $2`, [workspaceId, target]);
      await client.query('update workspaces set owner_id = $2, updated_at = now() where id = $1', [workspaceId, target]);
    });
    for (const id of [caller.id, target]) {
      this.deps.forgetMember(id);
      this.deps.plans.forget(id);
    }
    this.deps.plans.forget(workspaceId);
    return this.get(caller, workspaceId);
  }

  async #answer(row: WorkspaceRow): Promise<Workspace> {
    const { tier, limits } = await this.deps.plans.planOf(row.id);
    return {
      id: row.id,
      name: row.name,
      personal: row.personal,
      role: row.role,
      owner_id: row.owner_id,
      tier,
      seats: { used: row.seats_used, limit: limits.seats },
      created_at: row.created_at,
    };
  }
}
