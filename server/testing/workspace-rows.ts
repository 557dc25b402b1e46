// Workspaces and memberships written straight into the database, for tests of what members share (the workspace
// API that makes them is tested on its own).
import { randomUUID } from 'node:crypto';
import type pg from 'pg';

type Queryable = Pick<pg.Pool, 'query'>;

/** Makes an account's personal workspace (its id is the account's) with the account as owner, if missing. */
export async function personalWorkspace(pool: Queryable, userId: string, email = ''): Promise<string> {
  await pool.query(`INSERT INTO workspaces (id, name, owner_id, personal) VALUES ($1, 'Personal', $1, true) ON CONFLICT (id) DO NOTHING`, [userId]);
  await pool.query(`INSERT INTO workspace_members (workspace_id, user_id, email, role) VALUES ($1, $1, $2, 'owner') ON CONFLICT DO NOTHING`, [userId, email]);
  return userId;
}

/** A shared workspace owned by `ownerId`, with `members` as members; answers its id. */
export async function sharedWorkspace(pool: Queryable, ownerId: string, members: string[] = [], name = 'Agency'): Promise<string> {
  const id = randomUUID();
  await pool.query(`INSERT INTO workspaces (id, name, owner_id, personal) VALUES ($1, $2, $3, false)`, [id, name, ownerId]);
  await pool.query(`INSERT INTO workspace_members (workspace_id, user_id, role) VALUES ($1, $2, 'owner')`, [id, ownerId]);
  for (const member of members) await addMember(pool, id, member);
  return id;
}

export async function addMember(pool: Queryable, workspaceId: string, userId: string): Promise<void> {
  await pool.query(`INSERT INTO workspace_members (workspace_id, user_id, role) VALUES ($1, $2, 'member') ON CONFLICT DO NOTHING`, [workspaceId, userId]);
}

/** Takes a member out of a workspace (what leaving or a removal does to the membership row). */
export async function removeMember(pool: Queryable, workspaceId: string, userId: string): Promise<void> {
  await pool.query(`DELETE FROM workspace_members WHERE workspace_id = $1 AND user_id = $2`, [workspaceId, userId]);
}

/** How long a membership answer may be kept by an instance (server/workspaces/access.ts), and a little more. */
export const MEMBERSHIP_SETTLE_MS = 1_100;
