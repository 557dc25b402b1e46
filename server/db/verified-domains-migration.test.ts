import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partlyMigrated, type PartlyMigrated } from '../testing/fresh-database';
import { personalWorkspace } from '../testing/workspace-rows';

// Migration 0019 on a database that the migrations before it made: existing projects and scans stay passive and
// unconfirmed; domains are one per workspace and go with their workspace.

let migrated: PartlyMigrated;
let pool: pg.Pool;
const userId = randomUUID();

beforeAll(async () => {
  migrated = await partlyMigrated(18);
  pool = migrated.pool;
  await personalWorkspace(pool, userId);
  const { rows } = await pool.query<{ id: string }>(`INSERT INTO projects (user_id, workspace_id, url) VALUES ($1, $1, 'https://shop.example/') RETURNING id`, [userId]);
  await pool.query(`INSERT INTO scans (project_id, user_id, workspace_id, url, num_pages, state) VALUES ($1, $2, $2, 'https://shop.example/', 1, 'completed')`, [
    rows[0]!.id,
    userId,
  ]);
  await migrated.migrateUpTo(19);
}, 120_000);

afterAll(() => migrated?.close());

describe('migration 0019', () => {
  it('leaves existing projects and scans passive and unconfirmed', async () => {
    expect((await pool.query('SELECT active_mode, permission_confirmed_at FROM projects')).rows).toEqual([{ active_mode: false, permission_confirmed_at: null }]);
    expect((await pool.query('SELECT active FROM scans')).rows).toEqual([{ active: false }]);
  });

  it('keeps a domain once per workspace, and drops it with its workspace', async () => {
    const insert = () => pool.query(`INSERT INTO verified_domains (workspace_id, user_id, domain, token) VALUES ($1, $1, 'shop.example', 't')`, [userId]);
    await insert();
    await expect(insert()).rejects.toMatchObject({ code: '23505' });
    await pool.query('DELETE FROM workspaces WHERE id = $1', [userId]);
    expect((await pool.query('SELECT count(*)::int AS n FROM verified_domains')).rows).toEqual([{ n: 0 }]);
  });
});
