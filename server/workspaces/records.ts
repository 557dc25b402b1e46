import type pg from 'pg';
import { poolTransaction } from '../db/transaction';

// A workspace's records, wherever they are: every table with a workspace_id column (read from information_schema
// at each deletion, so a table added later is not forgotten). Used when a workspace is deleted and when an
// account's deletion takes its personal workspace and the shared ones it alone is in.

/** Rows that must go before the rows they point at, where the foreign key does not cascade. */
const FIRST = ['webhook_deliveries', 'scenario_runs', 'continuous_builds', 'reports', 'events', 'scans'];
/** The workspace's own tables, which cascade from the workspaces row. */
const OWN = new Set(['workspaces', 'workspace_members', 'workspace_invitations']);

/** The tables of the public schema with a workspace_id column (other than the workspace's own), in deletion order. */
export async function workspaceTables(client: pg.PoolClient | pg.Pool): Promise<string[]> {
  const { rows } = await client.query<{ table_name: string }>(
    `select c.table_name from information_schema.columns c
       join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name and t.table_type = 'BASE TABLE'
      where c.table_schema = current_schema() and c.column_name = 'workspace_id'
      order by c.table_name`,
  );
  const names = rows.map((row) => row.table_name).filter((name) => !OWN.has(name));
  const rank = (name: string) => (FIRST.includes(name) ? FIRST.indexOf(name) : FIRST.length);
  return names.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/**
 * Deletes a workspace with every record in it, inside the caller's transaction. Answers the hashes of the API
 * keys deleted (every instance's key cache must drop them) and the rows deleted per table.
 */
export async function deleteWorkspaceRecords(client: pg.PoolClient, workspaceId: string): Promise<{ apiKeyHashes: string[]; deleted: Record<string, number> }> {
  const { rows: keys } = await client.query<{ key_hash: string }>('delete from api_keys where workspace_id = $1 returning key_hash', [workspaceId]);
  const deleted: Record<string, number> = keys.length ? { api_keys: keys.length } : {};
  for (const table of await workspaceTables(client)) {
    if (table === 'api_keys') continue;
    // The table name comes from information_schema, quoted as an identifier.
    const result = await client.query(`delete from "${table.replace(/"/g, '""')}" where workspace_id = $1`, [workspaceId]);
    if (result.rowCount) deleted[table] = (deleted[table] ?? 0) + result.rowCount;
  }
  const workspace = await client.query('delete from workspaces where id = $1', [workspaceId]);
  if (workspace.rowCount) deleted.workspaces = workspace.rowCount;
  return { apiKeyHashes: keys.map((key) => key.key_hash), deleted };
}

/** Runs `work` in one transaction on a client of the pool (a lost connection is never an uncaught error). */
export const inTransaction = poolTransaction;

/** Serialises the changes of one workspace's members and seats (across instances: a PostgreSQL advisory lock). */
export async function lockWorkspace(client: pg.PoolClient, workspaceId: string): Promise<void> {
  await client.query(`select pg_advisory_xact_lock(hashtextextended('vibeeval_workspace:' || $1, 0))`, [workspaceId]);
}
