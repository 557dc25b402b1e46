import { randomUUID } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type FreshDatabase } from '../testing/fresh-database';
import { personalWorkspace } from '../testing/workspace-rows';

// Migration 0019 on a database that the migrations before it made: existing projects and scans stay passive and
// unconfirmed; domains are one per workspace and go with their workspace.

const MIGRATIONS = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

let dir: string;
let database: FreshDatabase;
let pool: pg.Pool;
const userId = randomUUID();

async function migrateUpTo(folder: string, lastIdx: number) {
  const journal = JSON.parse(await readFile(join(MIGRATIONS, 'meta', '_journal.json'), 'utf8')) as { entries: { idx: number }[] };
  await writeFile(join(folder, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries: journal.entries.filter((entry) => entry.idx <= lastIdx) }));
  await migrate(drizzle(pool), { migrationsFolder: folder });
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'vibeeval-migration-0019-'));
  database = await freshDatabase({ migrated: false });
  pool = new pg.Pool({ connectionString: database.url, max: 2 });
  // The database's drop at the end tells a connection still closing that it ends: expected, not an error of the test.
  pool.on('error', () => undefined);
  const folder = join(dir, 'migrations');
  await cp(MIGRATIONS, folder, { recursive: true });
  await migrateUpTo(folder, 18);
  await personalWorkspace(pool, userId);
  const { rows } = await pool.query<{ id: string }>(`INSERT INTO projects (user_id, workspace_id, url) VALUES ($1, $1, 'https://shop.example/') RETURNING id`, [userId]);
  await pool.query(`INSERT INTO scans (project_id, user_id, workspace_id, url, num_pages, state) VALUES ($1, $2, $2, 'https://shop.example/', 1, 'completed')`, [rows[0]!.id, userId]);
  await migrateUpTo(folder, 19);
}, 120_000);

afterAll(async () => {
  await pool?.end();
  await database?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

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
