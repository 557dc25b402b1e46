import type pg from 'pg';
import { deleteAccountRecords } from '../account/deletion';
import { REVOKED_CHANNEL } from '../api-keys/auth';
import { inTransaction, lockWorkspace, workspaceTables } from '../workspaces/records';
import { AuthError } from './service';
import { tokenHash } from './tokens';

// An account made with an address nobody proved is set aside when a verified Google identity arrives for that
// address (ProviderSignIn.setAsideUnproven). Usually its maker was the address's owner, so a mail to the address
// offers the way back: its link, bound to both accounts, moves the set-aside account's records into the Google
// account. Following it proves the mailbox, which is all the Google sign-in proved too. What could have been
// planted by someone else is not trusted on arrival: webhooks (they would send the owner's findings to the planter's
// URL; webhooks have no "off" state, so they are deleted, and the mail lists their URLs to make again) and API keys
// (whoever made the account may hold them) are deleted, never moved.

/** How long an adoption link works. */
export const ADOPT_TTL_MS = 24 * 60 * 60 * 1000;

/** What a set-aside account holds, told in the mail to its address. */
export interface SetAsideHoldings {
  projects: number;
  scenarios: number;
  webhookUrls: string[];
  apiKeys: number;
}

/** The records of the set-aside account's personal workspace (whose id is the account's) and its API keys. */
export async function setAsideHoldings(pool: pg.Pool, userId: string): Promise<SetAsideHoldings> {
  const { rows } = await pool.query<{ projects: number; scenarios: number; webhook_urls: string[] | null; api_keys: number }>(
    `select (select count(*)::int from projects where workspace_id = $1) as projects,
            (select count(*)::int from scenarios where workspace_id = $1) as scenarios,
            (select array_agg(url order by created_at, id) from webhooks where workspace_id = $1) as webhook_urls,
            (select count(*)::int from api_keys where workspace_id = $1 or user_id = $1) as api_keys`,
    [userId],
  );
  const row = rows[0];
  return { projects: row?.projects ?? 0, scenarios: row?.scenarios ?? 0, webhookUrls: row?.webhook_urls ?? [], apiKeys: row?.api_keys ?? 0 };
}

/** What following the link did. */
export interface Adoption {
  /** The account that received the records. */
  targetUserId: string;
  /** Rows moved per table (of the personal workspace). */
  moved: Record<string, number>;
  /** URLs of the webhooks deleted rather than moved. */
  webhooksDeleted: string[];
  apiKeysDeleted: number;
}

const quoted = (table: string) => `"${table.replace(/"/g, '""')}"`;
const invalid = () => new AuthError(403, 'otp_expired', 'This link is invalid or was already used, or the account it would move no longer exists.');

/**
 * Redeems an adoption link, in one transaction: the set-aside account's personal workspace's records move into the
 * receiving account's personal workspace; shared workspaces it owns pass to the receiving account; its webhooks
 * and API keys are deleted; then the set-aside account is deleted as DELETE /account would (its emptied personal
 * workspace, memberships, sessions, tokens, preferences, the users row). The token goes with the account, so a
 * second use finds nothing.
 */
export async function adoptSetAside(pool: pg.Pool, token: string): Promise<Adoption> {
  return inTransaction(pool, async (client) => {
    const { rows: links } = await client.query<{ user_id: string; target_user_id: string | null; live: boolean; used: boolean }>(
      `select user_id, target_user_id, expires_at > now() as live, used_at is not null as used
         from one_time_tokens where token_hash = $1 and kind = 'adopt' for update`,
      [tokenHash(token)],
    );
    const link = links[0];
    if (!link?.target_user_id || link.used) throw invalid();
    if (!link.live) throw new AuthError(403, 'otp_expired', 'This link has expired (it works for 24 hours); the account it would move stays apart.');
    const old = link.user_id;
    const target = link.target_user_id;
    // Locked first, as DELETE /account does: nothing makes a workspace for either account meanwhile.
    const { rows: accounts } = await client.query<{ id: string; email: string; disabled: boolean }>(
      'select id, email, disabled_at is not null as disabled from users where id = any($1::uuid[]) order by id for update',
      [[old, target]],
    );
    const setAside = accounts.find((a) => a.id === old);
    const receiver = accounts.find((a) => a.id === target);
    if (!setAside?.disabled || !receiver) throw invalid();
    await client.query('update one_time_tokens set used_at = now() where token_hash = $1', [tokenHash(token)]);

    // The receiving account's personal workspace, made here if it never made a request (WorkspaceAccess.ensurePersonal).
    await client.query(`insert into workspaces (id, name, owner_id, personal) values ($1, 'Personal', $1, true) on conflict (id) do nothing`, [target]);
    await client.query(`insert into workspace_members (workspace_id, user_id, email, role) values ($1, $1, $2, 'owner') on conflict (workspace_id, user_id) do nothing`, [
      target,
      receiver.email,
    ]);
    // Personal workspaces' ids are their owners'.
    for (const id of [old, target].sort()) await lockWorkspace(client, id);

    const { rows: hooks } = await client.query<{ url: string }>('delete from webhooks where workspace_id = $1 returning url', [old]);
    const { rows: keys } = await client.query<{ key_hash: string }>('delete from api_keys where workspace_id = $1 or user_id = $1 returning key_hash', [old]);
    // Every instance drops the keys from its cache when this commits.
    for (const key of keys) await client.query('select pg_notify($1, $2)', [REVOKED_CHANNEL, key.key_hash]);
    // Usage is counted per workspace and day (unique): the old workspace's counts were of the keys just deleted.
    await client.query('delete from api_usage where workspace_id = $1', [old]);

    const moved: Record<string, number> = {};
    const tables = await workspaceTables(client);
    for (const table of tables) {
      // The table name comes from information_schema, quoted as an identifier.
      const result = await client.query(`update ${quoted(table)} set workspace_id = $2 where workspace_id = $1`, [old, target]);
      if (result.rowCount) moved[table] = result.rowCount;
    }
    // `user_id` of a record is who made it: the person is now the receiving account, wherever the record is.
    const { rows: made } = await client.query<{ table_name: string }>(
      `select table_name from information_schema.columns where table_schema = current_schema() and column_name = 'user_id' and table_name = any($1::text[])`,
      [tables],
    );
    for (const { table_name: table } of made) await client.query(`update ${quoted(table)} set user_id = $2 where user_id = $1`, [old, target]);

    // Shared workspaces the set-aside account owns pass to the receiving account (DELETE /account would delete
    // those it is alone in, and refuse for the others).
    const owned = `select id from workspaces where owner_id = $1 and not personal`;
    await client.query(`delete from workspace_members where user_id = $2 and workspace_id in (${owned})`, [old, target]);
    await client.query(`update workspace_members set user_id = $2, email = $3 where user_id = $1 and workspace_id in (${owned})`, [old, target, receiver.email]);
    await client.query('update workspaces set owner_id = $2 where owner_id = $1 and not personal', [old, target]);

    await deleteAccountRecords(client, old, false);
    return { targetUserId: target, moved, webhooksDeleted: hooks.map((h) => h.url), apiKeysDeleted: keys.length };
  });
}
