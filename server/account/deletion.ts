import type pg from 'pg';
import { ACCOUNT_ERRORS } from '../../common/preferences';
import { deleteWorkspaceRecords, inTransaction, lockWorkspace, workspaceTables } from '../workspaces/records';

// DELETE /account: records belong to workspaces (`user_id` is only who made them). The account's personal workspace
// goes with every record in it, and so does each shared workspace it owns where it is the only member; a shared
// workspace it owns with other members refuses the deletion (409: transfer ownership or delete it first). Its
// memberships elsewhere end, and what it made in others' workspaces stays there. Then every row of the user in the
// tables that have a user_id column and no workspace_id (sessions, tokens, preferences, subscriptions: read from
// information_schema at each deletion, so a table added later is not forgotten), and the users row itself, in one
// transaction. Refresh tokens follow their session, reports go (so their signed links answer 404), and every API
// key the user made goes: their hashes are returned so the in-memory key cache of every instance is told.

/** Rows that must go before the rows they point at, where the foreign key does not cascade. */
const FIRST = ['webhook_deliveries', 'scenario_runs', 'continuous_builds', 'reports', 'events', 'scans'];

export interface AccountDeletion {
  /** Tables a row was deleted from, with the count. */
  deleted: Record<string, number>;
  /** Hashes of the API keys deleted: to drop from every instance's cache. */
  apiKeyHashes: string[];
}

/** The tables of the public schema with a user_id column, in the order the deletion walks them. */
export async function userTables(client: pg.PoolClient | pg.Pool): Promise<string[]> {
  const { rows } = await client.query<{ table_name: string }>(
    `select c.table_name from information_schema.columns c
       join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name and t.table_type = 'BASE TABLE'
      where c.table_schema = current_schema() and c.column_name = 'user_id'
      order by c.table_name`,
  );
  const names = rows.map((row) => row.table_name);
  const rank = (name: string) => (FIRST.includes(name) ? FIRST.indexOf(name) : FIRST.length);
  return names.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** The tables with a user_id column that hold the person's own rows (no workspace_id: not a workspace's record). */
async function personalTables(client: pg.PoolClient): Promise<string[]> {
  const shared = new Set(await workspaceTables(client));
  return (await userTables(client)).filter((table) => !shared.has(table));
}

/** Refused: a shared workspace the account owns has other members. */
export class OwnedWorkspaceError extends Error {
  readonly statusCode = 409;
  constructor(name: string) {
    super(ACCOUNT_ERRORS.ownsSharedWorkspace(name));
  }
}

/** Refuses when the user owns a shared workspace that has other members; answers the owned workspaces' ids otherwise. */
export async function ownedWorkspaces(client: pg.PoolClient | pg.Pool, userId: string): Promise<string[]> {
  const { rows } = await client.query<{ id: string; name: string; others: boolean }>(
    `select w.id, w.name, exists (select 1 from workspace_members m where m.workspace_id = w.id and m.user_id <> $1) as others
       from workspaces w where w.owner_id = $1 order by w.personal desc, w.created_at, w.id`,
    [userId],
  );
  const blocking = rows.find((row) => row.others);
  if (blocking) throw new OwnedWorkspaceError(blocking.name);
  return rows.map((row) => row.id);
}

/** Cancels the user's active subscriptions with their provider (the billing service's closeAccount). */
export type CloseBilling = (userId: string) => Promise<void>;

/**
 * Deletes everything of the user in one transaction. `closeBilling`, when given, runs first and outside the
 * transaction (it may call the payment provider, which must not hold a transaction open); if it throws, nothing
 * is deleted. Without it, the user's subscription rows are marked canceled inside the transaction.
 */
export async function deleteAccount(pool: pg.Pool, userId: string, closeBilling?: CloseBilling): Promise<AccountDeletion> {
  // Checked before billing is closed, so a refused deletion leaves the subscription alone; checked again below.
  await ownedWorkspaces(pool, userId);
  if (closeBilling) await closeBilling(userId);
  return inTransaction(pool, (client) => deleteAccountRecords(client, userId, Boolean(closeBilling)));
}

/**
 * The deletion itself, inside the caller's transaction (also used when a set-aside account's records were moved to
 * the account that proved its address: server/auth/adoption.ts). `billingClosed`: the subscriptions were cancelled
 * with their provider already; otherwise they are marked canceled here.
 */
export async function deleteAccountRecords(client: pg.PoolClient, userId: string, billingClosed: boolean): Promise<AccountDeletion> {
  // First, so that making the personal workspace for this user (WorkspaceAccess.ensurePersonal, which reads the
  // row FOR KEY SHARE) waits for the deletion and then finds no user, instead of making it again meanwhile.
  await client.query('select 1 from users where id = $1 for update', [userId]);
  if (!billingClosed) await markSubscriptionsCanceled(client, userId);
  const deleted: Record<string, number> = {};
  const count = (table: string, n: number | null) => {
    if (n) deleted[table] = (deleted[table] ?? 0) + n;
  };
  const apiKeyHashes: string[] = [];
  for (const workspaceId of await ownedWorkspaces(client, userId)) {
    await lockWorkspace(client, workspaceId);
    // Re-read under the lock: an invitation accepted meanwhile makes the workspace someone else's too.
    await ownedWorkspaces(client, userId);
    const gone = await deleteWorkspaceRecords(client, workspaceId);
    apiKeyHashes.push(...gone.apiKeyHashes);
    for (const [table, n] of Object.entries(gone.deleted)) count(table, n);
  }
  // Keys act for the person who made them: those made in others' workspaces go too.
  const { rows: keys } = await client.query<{ key_hash: string }>('delete from api_keys where user_id = $1 returning key_hash', [userId]);
  apiKeyHashes.push(...keys.map((key) => key.key_hash));
  count('api_keys', keys.length);
  count('workspace_members', (await client.query('delete from workspace_members where user_id = $1', [userId])).rowCount);
  for (const table of await personalTables(client)) {
    // The table name comes from information_schema, quoted as an identifier.
    count(table, (await client.query(`delete from "${table.replace(/"/g, '""')}" where user_id = $1`, [userId])).rowCount);
  }
  count('users', (await client.query('delete from users where id = $1', [userId])).rowCount);
  return { deleted, apiKeyHashes };
}

/** Without a billing service: the user's subscriptions are marked canceled (in the deletion's transaction). */
async function markSubscriptionsCanceled(client: pg.PoolClient, userId: string): Promise<void> {
  await client.query(
    `update subscriptions set status = 'canceled', cancel_at_period_end = false, pending_price_id = null, updated_at = now() where user_id = $1 and status <> 'canceled'`,
    [userId],
  );
}
