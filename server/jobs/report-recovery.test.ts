import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { startServer } from '../server';
import { freshDatabase } from '../testing/fresh-database';
import { signUp } from '../testing/http';

// Report jobs killed with their process (kill -9, a crash, a power cut) leave their rows 'running' with a heartbeat
// that stops; the next start must take them over like scans and scenario runs.

const ENV = { PATH: process.env.PATH, LOG_LEVEL: 'warn', PORT: '0', VIBEEVAL_SCAN_RENDER: 'false', VIBEEVAL_SCAN_RATE: '0', VIBEEVAL_UNSUBSCRIBED_TIER: 'enterprise' };

interface ReportState {
  id: string;
  state: string;
  error: string | null;
  attempts: number;
}

async function withPool<T>(databaseUrl: string, work: (pool: pg.Pool) => Promise<T>): Promise<T> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  try {
    return await work(pool);
  } finally {
    await pool.end();
  }
}

describe('report jobs across a kill', () => {
  it('ends a report killed mid-run completed after the restart, or failed with the reason when killed too often', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'vibeeval-report-recovery-'));
    // Both starts on one database, as a restarted process finds it.
    const database = await freshDatabase();
    try {
      const first = await startServer({ ...ENV, VIBEEVAL_DATA_DIR: dataDir, DATABASE_URL: database.url });
      let ids: { killedOnce: string; beforeHeartbeats: string; killedTwice: string };
      try {
        const user = await signUp(first.origin, 'report-recovery');
        const created = await fetch(`${first.origin}/project`, {
          method: 'POST',
          headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ url: 'http://127.0.0.1:9/' }),
        });
        const projectId = ((await created.json()) as { id: string }).id;
        // The rows a killed process leaves: running, a heartbeat that stopped minutes ago (or none, from a version
        // before report heartbeats), and one whose worker already died twice on it.
        ids = await withPool(database.url, async (pool) => {
          const insert = async (type: string, heartbeat: string, attempts: number) => {
            const { rows } = await pool.query<{ id: string }>(
              `insert into reports (user_id, workspace_id, project_id, type, url, state, progress, attempts, heartbeat_at)
               select user_id, workspace_id, id, $2, url, 'running', '{"done":0,"total":1,"message":"Starting"}', $3, ${heartbeat}
                 from projects where id = $1 returning id`,
              [projectId, type, attempts],
            );
            return rows[0]!.id;
          };
          return {
            killedOnce: await insert('analytics', `now() - interval '10 minutes'`, 1),
            beforeHeartbeats: await insert('analytics', 'null', 0),
            killedTwice: await insert('performance', `now() - interval '10 minutes'`, 2),
          };
        });
      } finally {
        await first.close();
      }

      const second = await startServer({ ...ENV, VIBEEVAL_DATA_DIR: dataDir, DATABASE_URL: database.url });
      try {
        const settled = await withPool(database.url, async (pool) => {
          const deadline = Date.now() + 30_000;
          for (;;) {
            const { rows } = await pool.query<ReportState>('select id, state, error, attempts from reports where id = any($1) order by id', [Object.values(ids)]);
            if (rows.every((row) => row.state === 'completed' || row.state === 'failed')) return new Map(rows.map((row) => [row.id, row]));
            if (Date.now() > deadline) throw new Error(`reports still unfinished after 30 s: ${JSON.stringify(rows)}`);
            await new Promise((resolve) => setTimeout(resolve, 200));
          }
        });
        expect(settled.get(ids.killedOnce)).toMatchObject({ state: 'completed', error: null, attempts: 2 });
        expect(settled.get(ids.beforeHeartbeats)).toMatchObject({ state: 'completed', error: null, attempts: 1 });
        expect(settled.get(ids.killedTwice)).toMatchObject({
          state: 'failed',
          error: 'The report was interrupted 2 times (the server or worker running it stopped); it was not started again.',
        });
      } finally {
        await second.close();
      }
    } finally {
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
