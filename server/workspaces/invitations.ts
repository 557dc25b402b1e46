import { createHash, randomBytes } from 'node:crypto';
import type pg from 'pg';
import { RateLimiterPostgres } from 'rate-limiter-flexible';
import { PLAN_LIMIT_TEXTS } from '../../common/plan-limits';
import { INVITATION_TTL_HOURS, INVITATIONS_PER_HOUR, WORKSPACE_TEXTS, type Invitation, type InvitationPreview, type Workspace } from '../../common/workspaces';
import { PlanLimitError, type PlanGate } from '../billing/plan-gate';
import type { Mailer } from '../mail/mailer';
import { takePoint } from '../rate-limit';
import { cursorTimestampSql, decodeCursor, pageOf } from '../pagination';
import { invitationMail } from './mail';
import { inTransaction, lockWorkspace } from './records';
import type { Caller, WorkspaceService } from './service';
import { HttpError } from '../http-errors';

// Invitations: the owner of a shared workspace invites an address; the mail carries a secret link
// (`vbi_` + 256 random bits, base64url) of which only the SHA-256 is stored; it expires after
// INVITATION_TTL_HOURS and works once, for the invited address only. Seats (members plus open invitations)
// are counted under the workspace's advisory lock, so two owners' tabs or two instances cannot both take the last.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const OPEN = `accepted_at is null and revoked_at is null and expires_at > now()`;
const ISO = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export interface InvitationDeps {
  pool: pg.Pool;
  plans: PlanGate;
  mailer: Mailer;
  workspaces: WorkspaceService;
  /** The origin of the links in mail (as report links get it). */
  origin(): string;
  forgetMember(userId: string): void;
}

/** The stored form of an invitation's secret. */
export const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/** A new invitation secret: `vbi_` and 32 random bytes in base64url (43 characters). */
export const newInvitationToken = () => `vbi_${randomBytes(32).toString('base64url')}`;

interface Found {
  id: string;
  workspace_id: string;
  workspace_name: string;
  email: string;
  invited_by: string;
  expires_at: string;
  accepted: boolean;
  open: boolean;
}

export class Invitations {
  readonly #perHour: RateLimiterPostgres;

  constructor(private readonly deps: InvitationDeps) {
    // Counted in PostgreSQL (the table sign-in and creation limits use), so every instance of a team shares it.
    this.#perHour = new RateLimiterPostgres({
      storeClient: deps.pool,
      storeType: 'pool',
      tableName: 'rate_limits',
      tableCreated: true,
      keyPrefix: 'workspace_invite',
      points: INVITATIONS_PER_HOUR,
      duration: 3600,
    });
  }

  /** The owner invites an address: 201 with the open invitation, and the mail sent. */
  async create(caller: Caller, workspaceId: string, email: string): Promise<Invitation> {
    const token = newInvitationToken();
    const { invitation, workspaceName } = await inTransaction(this.deps.pool, async (client) => {
      const { personal, name } = await this.deps.workspaces.roleIn(client, caller, workspaceId, 'owner');
      if (personal) throw new HttpError(409, WORKSPACE_TEXTS.personalNotShared);
      await lockWorkspace(client, workspaceId);
      await this.#refuseMemberOrInvited(client, workspaceId, email);
      await this.#assertSeatFree(client, workspaceId, true);
      const retryAfter = await takePoint(this.#perHour, workspaceId);
      if (retryAfter !== null) throw Object.assign(new HttpError(429, WORKSPACE_TEXTS.invitationsTooMany), { retryAfterSeconds: retryAfter });
      const { rows } = await client.query<Invitation>(
        `insert into workspace_invitations (workspace_id, email, invited_by, token_hash, expires_at)
         values ($1, $2, $3, $4, now() + make_interval(hours => $5))
         returning id, email, ${ISO('expires_at')} as expires_at, ${ISO('created_at')} as created_at`,
        [workspaceId, email, caller.id, tokenHash(token), INVITATION_TTL_HOURS],
      );
      return { invitation: rows[0]!, workspaceName: name };
    });
    try {
      await this.deps.mailer.send(
        invitationMail({ to: email, workspaceName, inviter: caller.email, link: `${this.deps.origin()}/invite?token=${token}`, hours: INVITATION_TTL_HOURS }),
      );
    } catch (error) {
      // An invitation nobody received must not hold a seat or block the next attempt. The mail error names the
      // address: only the invitation's id and the error's code reach the log.
      await this.deps.pool.query('update workspace_invitations set revoked_at = now() where id = $1', [invitation.id]);
      throw Object.assign(new Error(`invitation ${invitation.id}: the mail could not be sent (${(error as { code?: string }).code ?? 'error'})`), { statusCode: 502 });
    }
    return invitation;
  }

  async #refuseMemberOrInvited(client: pg.PoolClient, workspaceId: string, email: string): Promise<void> {
    const member = await client.query(`select 1 from workspace_members where workspace_id = $1 and lower(email) = lower($2)`, [workspaceId, email]);
    if (member.rowCount) throw new HttpError(409, WORKSPACE_TEXTS.alreadyMember);
    // An expired invitation is closed here, so the one-open-invitation index lets a new one in.
    await client.query(
      `update workspace_invitations set revoked_at = now() where workspace_id = $1 and lower(email) = lower($2) and accepted_at is null and revoked_at is null and expires_at <= now()`,
      [workspaceId, email],
    );
    const open = await client.query(`select 1 from workspace_invitations where workspace_id = $1 and lower(email) = lower($2) and ${OPEN}`, [workspaceId, email]);
    if (open.rowCount) throw new HttpError(409, WORKSPACE_TEXTS.alreadyInvited);
  }

  /** Refuses one more seat beyond the plan's: members plus open invitations (`withInvitations`), or members only. */
  async #assertSeatFree(client: pg.PoolClient, workspaceId: string, withInvitations: boolean): Promise<void> {
    const { tier, limits } = await this.deps.plans.planOf(workspaceId);
    if (limits.seats === null) return;
    const { rows } = await client.query<{ used: number }>(
      `select ((select count(*) from workspace_members where workspace_id = $1)
        + ${withInvitations ? `(select count(*) from workspace_invitations where workspace_id = $1 and ${OPEN})` : '0'})::int as used`,
      [workspaceId],
    );
    if (rows[0]!.used + 1 > limits.seats) throw new PlanLimitError('seats', tier, PLAN_LIMIT_TEXTS.seats(tier, limits.seats));
  }

  /** The open invitations of a workspace (owner only), oldest first. */
  async list(caller: Caller, workspaceId: string, { limit, cursor }: { limit: number; cursor?: string }): Promise<{ items: Invitation[]; next: string | null }> {
    await this.deps.workspaces.roleIn(this.deps.pool, caller, workspaceId, 'owner');
    const after = decodeCursor(cursor);
    const { rows } = await this.deps.pool.query<Invitation & { k_at: string }>(
      `select id, email, ${ISO('expires_at')} as expires_at, ${ISO('created_at')} as created_at, ${cursorTimestampSql('created_at')} as k_at
         from workspace_invitations
        where workspace_id = $1 and ${OPEN} ${after ? 'and (created_at, id) > ($3::timestamptz, $4::uuid)' : ''}
        order by created_at, id limit $2`,
      after ? [workspaceId, limit + 1, after.at, after.id] : [workspaceId, limit + 1],
    );
    const page = pageOf(rows, limit, (row) => ({ at: row.k_at, id: row.id }));
    return { items: page.items.map(({ k_at: _key, ...invitation }) => invitation), next: page.next };
  }

  /** The owner withdraws an open invitation: its link stops working. */
  async revoke(caller: Caller, workspaceId: string, invitationId: string): Promise<void> {
    await this.deps.workspaces.roleIn(this.deps.pool, caller, workspaceId, 'owner');
    const notFound = new HttpError(404, WORKSPACE_TEXTS.invitationNotFound);
    if (!UUID.test(invitationId)) throw notFound;
    const revoked = await this.deps.pool.query(`update workspace_invitations set revoked_at = now() where id = $1 and workspace_id = $2 and ${OPEN}`, [invitationId, workspaceId]);
    if (!revoked.rowCount) throw notFound;
  }

  /** What accepting would join, for the invited address only. */
  async preview(caller: Caller, token: string): Promise<InvitationPreview> {
    const found = usable(await this.#find(this.deps.pool, token), caller);
    return { workspace_name: found.workspace_name, invited_by: found.invited_by, email: found.email, expires_at: found.expires_at };
  }

  /** Joins the workspace: once (a second accept answers 410, even at the same moment), and only while a seat is free. */
  async accept(caller: Caller, token: string): Promise<Workspace> {
    const workspaceId = await inTransaction(this.deps.pool, async (client) => {
      const seen = usable(await this.#find(client, token), caller);
      await lockWorkspace(client, seen.workspace_id);
      // Read again under the lock: another accept may have taken it meanwhile (then 410, not a seat refusal).
      const found = usable(await this.#find(client, token), caller);
      await this.#assertSeatFree(client, found.workspace_id, false);
      // The single use itself: only one UPDATE can find it still open.
      const { rows } = await client.query<{ id: string }>(`update workspace_invitations set accepted_at = now(), accepted_by = $2 where id = $1 and ${OPEN} returning id`, [
        found.id,
        caller.id,
      ]);
      if (!rows[0]) throw new HttpError(410, WORKSPACE_TEXTS.invitationUsed);
      await client.query(`insert into workspace_members (workspace_id, user_id, email, role) values ($1, $2, $3, 'member') on conflict do nothing`, [
        found.workspace_id,
        caller.id,
        caller.email,
      ]);
      return found.workspace_id;
    });
    this.deps.forgetMember(caller.id);
    return this.deps.workspaces.get(caller, workspaceId);
  }

  async #find(client: pg.Pool | pg.PoolClient, token: string): Promise<Found | undefined> {
    const { rows } = await client.query<Found>(
      `select i.id, i.workspace_id, w.name as workspace_name, i.email, coalesce(nullif(m.email, ''), w.name) as invited_by, ${ISO('i.expires_at')} as expires_at,
              i.accepted_at is not null as accepted, (${OPEN.replace(/(accepted_at|revoked_at|expires_at)/g, 'i.$1')}) as open
         from workspace_invitations i join workspaces w on w.id = i.workspace_id
         left join workspace_members m on m.workspace_id = i.workspace_id and m.user_id = i.invited_by
        where i.token_hash = $1`,
      [tokenHash(token)],
    );
    return rows[0];
  }
}

/** The invitation when the caller may use it; else the refusal: unknown, expired or revoked 404, used 410, another address 403. */
function usable(found: Found | undefined, caller: Caller): Found {
  if (found?.accepted) throw new HttpError(410, WORKSPACE_TEXTS.invitationUsed);
  if (!found?.open) throw new HttpError(404, WORKSPACE_TEXTS.invitationInvalid);
  if (found.email.trim().toLowerCase() !== caller.email.trim().toLowerCase()) throw new HttpError(403, WORKSPACE_TEXTS.invitationOtherEmail);
  return found;
}
