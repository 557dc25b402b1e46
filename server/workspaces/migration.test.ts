import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partlyMigrated, type PartlyMigrated } from '../testing/fresh-database';

// Migration 0012 on a database that 0000–0011 made and that holds records: two local accounts and one hosted
// account (records, no users row). Each account's records must land in its personal workspace, nothing else moving.

/** The tables 0012 gives a workspace to, and which of them this test fills. */
const FILLED = ['projects', 'scans', 'events', 'reports', 'continuous_builds', 'continuous_usage'] as const;

let migrated: PartlyMigrated;
let pool: pg.Pool;
const localA = randomUUID();
const localB = randomUUID();
const hosted = randomUUID();
/** Every record made before 0012: table → [id or key, user_id]. */
const made = new Map<string, { key: string; userId: string }[]>();

async function recordsOf(userId: string, n: number) {
  const keep = (table: string, key: string) => made.set(table, [...(made.get(table) ?? []), { key, userId }]);
  for (let i = 0; i < n; i++) {
    const url = `https://site-${i}.example/`;
    const project = (await pool.query<{ id: string }>(`INSERT INTO projects (user_id, url) VALUES ($1, $2) RETURNING id`, [userId, url])).rows[0]!.id;
    keep('projects', project);
    const scan = (
      await pool.query<{ id: string }>(`INSERT INTO scans (project_id, user_id, url, num_pages, state) VALUES ($1, $2, $3, 1, 'completed') RETURNING id`, [project, userId, url])
    ).rows[0]!.id;
    keep('scans', scan);
    const report = (
      await pool.query<{ id: string }>(`INSERT INTO reports (user_id, project_id, scan_id, type, url, state) VALUES ($1, $2, $3, 'security', $4, 'completed') RETURNING id`, [
        userId,
        project,
        scan,
        url,
      ])
    ).rows[0]!.id;
    keep('reports', report);
    for (let e = 0; e < 3; e++) {
      keep(
        'events',
        (
          await pool.query<{ id: string }>(`INSERT INTO events (user_id, project_id, scan_id, event_name, url) VALUES ($1, $2, $3, 'other', $4) RETURNING id::text`, [
            userId,
            project,
            scan,
            url,
          ])
        ).rows[0]!.id,
      );
    }
    keep(
      'continuous_builds',
      (
        await pool.query<{ id: string }>(`INSERT INTO continuous_builds (user_id, project_id, build_hash, url) VALUES ($1, $2, 'abcdef0${i}', $3) RETURNING id`, [
          userId,
          project,
          url,
        ])
      ).rows[0]!.id,
    );
  }
  await pool.query(`INSERT INTO continuous_usage (user_id, month, reports) VALUES ($1, '2026-10-01', 7), ($1, '2026-11-01', 2)`, [userId]);
  keep('continuous_usage', '2026-10-01');
  keep('continuous_usage', '2026-11-01');
}

const keyColumn = (table: string) => (table === 'continuous_usage' ? `to_char(month, 'YYYY-MM-DD')` : 'id::text');

beforeAll(async () => {
  migrated = await partlyMigrated(11);
  pool = migrated.pool;
  await pool.query(`INSERT INTO users (id, email) VALUES ($1, 'a@example.com'), ($2, 'b@example.com')`, [localA, localB]);
  await recordsOf(localA, 2);
  await recordsOf(localB, 1);
  await recordsOf(hosted, 1);
  await migrated.migrateUpTo(12);
}, 120_000);

afterAll(() => migrated?.close());

describe('migration 0012', () => {
  it("moves every record into its maker's personal workspace: same ids, same makers, same counts", async () => {
    for (const table of FILLED) {
      const before = made.get(table)!;
      const { rows } = await pool.query<{ key: string; user_id: string; workspace_id: string }>(`SELECT ${keyColumn(table)} AS key, user_id, workspace_id FROM ${table}`);
      expect(rows, table).toHaveLength(before.length);
      const after = new Map(rows.map((row) => [`${row.user_id}/${row.key}`, row]));
      for (const { key, userId } of before) expect(after.get(`${userId}/${key}`), `${table} ${key}`).toMatchObject({ user_id: userId, workspace_id: userId });
    }
    const { rows: usage } = await pool.query<{ reports: number }>(`SELECT reports FROM continuous_usage WHERE workspace_id = $1 ORDER BY month`, [localA]);
    expect(usage.map((row) => row.reports)).toEqual([7, 2]);
  });

  it('gives every account, local or hosted, a personal workspace that it owns and nothing else', async () => {
    const { rows: spaces } = await pool.query<{ id: string; owner_id: string; personal: boolean }>(`SELECT id, owner_id, personal FROM workspaces ORDER BY id`);
    expect(spaces).toEqual([localA, localB, hosted].sort().map((id) => ({ id, owner_id: id, personal: true })));
    const { rows: members } = await pool.query<{ workspace_id: string; user_id: string; role: string; email: string }>(
      `SELECT workspace_id, user_id, role, email FROM workspace_members`,
    );
    expect(members).toHaveLength(3);
    expect(members).toEqual(
      expect.arrayContaining([
        { workspace_id: localA, user_id: localA, role: 'owner', email: 'a@example.com' },
        { workspace_id: localB, user_id: localB, role: 'owner', email: 'b@example.com' },
        { workspace_id: hosted, user_id: hosted, role: 'owner', email: '' },
      ]),
    );
  });

  it('counts monitoring reports per workspace and month, and leaves no per-user list index behind', async () => {
    await expect(pool.query(`INSERT INTO continuous_usage (user_id, workspace_id, month) VALUES ($1, $2, '2026-10-01')`, [localB, localA])).rejects.toThrow(
      /continuous_usage_pkey/,
    );
    const { rows } = await pool.query<{ indexname: string }>(
      `SELECT indexname FROM pg_indexes WHERE tablename IN ('projects', 'scans', 'reports', 'continuous_builds') AND indexdef LIKE '%(user_id%'`,
    );
    expect(rows).toEqual([]);
  });
});
