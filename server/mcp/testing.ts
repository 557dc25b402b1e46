// Test helpers: an API key for a signed-up user of a test server, written straight into the server's embedded
// database (the key routes are not needed to test what a key can reach).
import pg from 'pg';
import { generateApiKey, hashApiKey } from '../api-keys/keys';

/**
 * A new key of `userId` in a workspace (their personal one unless named), stored as the server stores keys (its
 * hash only); returns the key itself.
 */
export async function insertApiKey(databaseUrl: string, userId: string, name = 'agent', workspaceId = userId): Promise<string> {
  const key = generateApiKey();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    if (workspaceId === userId) {
      await client.query(`insert into workspaces (id, name, owner_id, personal) values ($1, 'Personal', $1, true) on conflict (id) do nothing`, [userId]);
      await client.query(`insert into workspace_members (workspace_id, user_id, role) values ($1, $1, 'owner') on conflict do nothing`, [userId]);
    }
    await client.query('insert into api_keys (workspace_id, user_id, name, key_hash, last_four) values ($1, $2, $3, $4, $5)', [
      workspaceId,
      userId,
      name,
      hashApiKey(key),
      key.slice(-4),
    ]);
  } finally {
    await client.end();
  }
  return key;
}
