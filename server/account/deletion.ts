import type pg from 'pg';

// DELETE /account: every row of the user, in every table that has a user_id column (read from
// information_schema at each deletion, so a table added later is not forgotten), then the users row itself, in
// one transaction. Sessions and refresh tokens go with them (auth_sessions has a user_id; refresh tokens follow
// their session), reports go (so their signed links answer 404), and API keys go: their hashes are returned so
// the in-memory key cache of every instance is told.

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

/** Cancels the user's active subscriptions with their provider (the billing service's closeAccount). */
export type CloseBilling = (userId: string) => Promise<void>;

/**
 * Deletes everything of the user in one transaction. `closeBilling`, when given, runs first and outside the
 * transaction (it may call the payment provider, which must not hold a transaction open); if it throws, nothing
 * is deleted. Without it, the user's subscription rows are marked canceled inside the transaction.
 */
export async function deleteAccount(pool: pg.Pool, userId: string, closeBilling?: CloseBilling): Promise<AccountDeletion> {
  if (closeBilling) await closeBilling(userId);
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('begin');
    try {
      if (!closeBilling) await markSubscriptionsCanceled(client, userId);
      const { rows: keys } = await client.query<{ key_hash: string }>('delete from api_keys where user_id = $1 returning key_hash', [userId]);
      const deleted: Record<string, number> = { api_keys: keys.length };
      for (const table of await userTables(client)) {
        if (table === 'api_keys') continue;
        // The table name comes from information_schema, quoted as an identifier.
        const result = await client.query(`delete from "${table.replace(/"/g, '""')}" where user_id = $1`, [userId]);
        if (result.rowCount) deleted[table] = result.rowCount;
      }
      const users = await client.query('delete from users where id = $1', [userId]);
      if (users.rowCount) deleted.users = users.rowCount;
      await client.query('commit');
      return { deleted, apiKeyHashes: keys.map((key) => key.key_hash) };
    } catch (error) {
      await client.query('rollback').catch((rollbackError: Error) => {
        broken = rollbackError;
      });
      throw error;
    }
  } finally {
    client.release(broken);
  }
}

/** Without a billing service: the user's subscriptions are marked canceled (in the deletion's transaction). */
async function markSubscriptionsCanceled(client: pg.PoolClient, userId: string): Promise<void> {
  await client.query(`update subscriptions set status = 'canceled', cancel_at_period_end = false, pending_price_id = null, updated_at = now() where user_id = $1 and status <> 'canceled'`, [userId]);
}
