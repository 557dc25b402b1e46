import type pg from 'pg';

type Queryable = Pick<pg.Pool, 'query'>;

/**
 * Workspace rows made directly in the database, for tests of what members share (the workspace API makes them in
 * the product). A personal workspace's id is its owner's id.
 */
export async function personalWorkspace(pool: Queryable, userId: string, email = ''): Promise<string> {
  await pool.query(`INSERT INTO workspaces (id, name, owner_id, personal) VALUES ($1, 'Personal', $1, true) ON CONFLICT (id) DO NOTHING`, [userId]);
  await pool.query(`INSERT INTO workspace_members (workspace_id, user_id, email, role) VALUES ($1, $1, $2, 'owner') ON CONFLICT DO NOTHING`, [userId, email]);
  return userId;
}

/** A shared workspace owned by `ownerId`, with its owner's membership. */
export async function sharedWorkspace(pool: Queryable, ownerId: string, name = 'Agency'): Promise<string> {
  const { rows } = await pool.query<{ id: string }>(`INSERT INTO workspaces (name, owner_id, personal) VALUES ($1, $2, false) RETURNING id`, [name, ownerId]);
  const id = rows[0]!.id;
  await pool.query(`INSERT INTO workspace_members (workspace_id, user_id, role) VALUES ($1, $2, 'owner')`, [id, ownerId]);
  return id;
}

export async function addMember(pool: Queryable, workspaceId: string, userId: string): Promise<void> {
  await pool.query(`INSERT INTO workspace_members (workspace_id, user_id, role) VALUES ($1, $2, 'member')`, [workspaceId, userId]);
}

export async function removeMember(pool: Queryable, workspaceId: string, userId: string): Promise<void> {
  await pool.query(`DELETE FROM workspace_members WHERE workspace_id = $1 AND user_id = $2`, [workspaceId, userId]);
}
