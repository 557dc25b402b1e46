import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Database } from '../db';
import { openFreshDatabase } from '../testing/fresh-database';
import { personalWorkspace } from '../testing/workspace-rows';
import { startJobs, type Jobs } from './queue';

// The reaper of a process sends again only the jobs of the queues that process works: a process that runs public
// scans alone leaves the regular scans and scenario runs it does not run to the processes that do.

describe('the job queue of a process that works some queues only', () => {
  let database: Database;
  let jobs: Jobs | undefined;

  beforeEach(async () => {
    database = await openFreshDatabase();
  }, 60_000);
  afterEach(async () => {
    await jobs?.stop();
    await database.close();
  });

  it('requeues the interrupted jobs of its own queues and no others', async () => {
    const pool = database.pool;
    const userId = await personalWorkspace(pool, randomUUID());
    const project = await pool.query<{ id: string }>(`INSERT INTO projects (user_id, workspace_id, url) VALUES ($1, $1, 'https://shop.example/') RETURNING id`, [userId]);
    // Each left behind by a process that died: queued a minute ago, or running with a heartbeat a minute old.
    await pool.query(
      `INSERT INTO scans (project_id, user_id, workspace_id, url, num_pages, queued_at) VALUES ($1, $2, $2, 'https://shop.example/', 1, now() - interval '1 minute')`,
      [project.rows[0]!.id, userId],
    );
    const scenario = await pool.query<{ id: string }>(
      `INSERT INTO scenarios (user_id, workspace_id, website, actions, scenario_code) VALUES ($1, $1, 'https://shop.example/', '[]'::jsonb, '') RETURNING id`,
      [userId],
    );
    await pool.query(`INSERT INTO scenario_runs (scenario_id, user_id, workspace_id, state, heartbeat_at) VALUES ($1, $2, $2, 'running', now() - interval '1 minute')`, [
      scenario.rows[0]!.id,
      userId,
    ]);
    const publicScan = await pool.query<{ id: string }>(
      `INSERT INTO public_scans (url, email, created_at) VALUES ('https://shop.example/', 'a@example.com', now() - interval '1 minute') RETURNING id`,
    );

    const ran: string[] = [];
    jobs = await startJobs({
      database,
      logger: pino({ level: 'silent' }),
      workers: {
        'public-scan': {
          concurrency: 1,
          run: (id) => {
            ran.push(id);
            return Promise.resolve();
          },
        },
      },
    });
    await vi.waitFor(() => expect(ran).toEqual([publicScan.rows[0]!.id]), { timeout: 20_000, interval: 100 });
    const { rows } = await pool.query<{ name: string; n: number }>(`SELECT name, count(*)::int AS n FROM pgboss.job GROUP BY name ORDER BY name`);
    expect(rows).toEqual([{ name: 'public-scan', n: 1 }]);
  }, 60_000);
});
