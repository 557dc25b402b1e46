import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partlyMigrated, type PartlyMigrated } from '../testing/fresh-database';
import { personalWorkspace } from '../testing/workspace-rows';

// Migration 0021 on a database that the migrations before it made: a scenario run's lifecycle moves from `status` to
// `state` with its value, and one queued or running run per scenario is still all there can be.

let migrated: PartlyMigrated;
let pool: pg.Pool;
let scenarioId: string;
const userId = randomUUID();

beforeAll(async () => {
  migrated = await partlyMigrated(20);
  pool = migrated.pool;
  await personalWorkspace(pool, userId);
  const { rows } = await pool.query<{ id: string }>(
    `INSERT INTO scenarios (user_id, workspace_id, website, actions, scenario_code) VALUES ($1, $1, 'https://shop.example/', '[]'::jsonb, '') RETURNING id`,
    [userId],
  );
  scenarioId = rows[0]!.id;
  await pool.query(`INSERT INTO scenario_runs (scenario_id, user_id, workspace_id, status) VALUES ($1, $2, $2, 'passed'), ($1, $2, $2, 'running')`, [scenarioId, userId]);
  await migrated.migrateUpTo(21);
}, 120_000);

afterAll(() => migrated?.close());

describe('migration 0021', () => {
  it("keeps each run's lifecycle under the name every leased job uses", async () => {
    const { rows } = await pool.query<{ state: string }>('SELECT state FROM scenario_runs ORDER BY state');
    expect(rows.map((row) => row.state)).toEqual(['passed', 'running']);
    const columns = await pool.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns WHERE table_name IN ('scans', 'public_scans', 'scenario_runs', 'reports') AND column_name IN ('state', 'status')`,
    );
    expect(new Set(columns.rows.map((row) => row.column_name))).toEqual(new Set(['state']));
  });

  it('still allows one queued or running run per scenario', async () => {
    await expect(pool.query(`INSERT INTO scenario_runs (scenario_id, user_id, workspace_id) VALUES ($1, $2, $2)`, [scenarioId, userId])).rejects.toMatchObject({ code: '23505' });
    await pool.query(`UPDATE scenario_runs SET state = 'failed' WHERE state = 'running'`);
    await pool.query(`INSERT INTO scenario_runs (scenario_id, user_id, workspace_id) VALUES ($1, $2, $2)`, [scenarioId, userId]);
    expect((await pool.query(`SELECT count(*)::int AS n FROM scenario_runs WHERE state = 'queued'`)).rows).toEqual([{ n: 1 }]);
  });
});
