import { randomUUID } from 'node:crypto';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../db';
import { ne } from 'drizzle-orm';
import { publicScans, reports, scans, scenarioRuns } from '../db/schema';
import { databaseForTests } from '../testing/fresh-database';
import { personalWorkspace } from '../testing/workspace-rows';
import { claimLease, Lease, putBackRunning, type LeasedTable, type LeaseRules, type LeaseTiming } from './lease';
import { capturedLogger } from './testing';

// The lease every job runs under, on the real PostgreSQL the other server tests use: one row per test, so that the
// tests share a database without seeing each other's rows.

const database = databaseForTests();
let userId: string;
// Short enough that a test waits for a renewal in well under a second; the lapse is taken by ageing the heartbeat.
const timing: LeaseTiming = { heartbeatMs: 50, staleAfterSeconds: 30 };

beforeAll(async () => {
  userId = await personalWorkspace(database.pool, randomUUID());
});

const TABLES = { scans: 'scans', public_scans: 'public_scans', scenario_runs: 'scenario_runs', reports: 'reports' } as const;
type TableName = keyof typeof TABLES;

/** A queued row of each leased kind, straight into its table. */
async function queued(table: TableName): Promise<string> {
  const pool = database.pool;
  if (table === 'reports')
    return (
      await pool.query<{ id: string }>(`INSERT INTO reports (user_id, workspace_id, type, url) VALUES ($1, $1, 'performance', 'https://shop.example/') RETURNING id`, [userId])
    ).rows[0]!.id;
  if (table === 'public_scans')
    return (await pool.query<{ id: string }>(`INSERT INTO public_scans (url, email) VALUES ('https://shop.example/', 'a@example.com') RETURNING id`)).rows[0]!.id;
  if (table === 'scans') {
    // A project of its own: a project has one scan queued or running at a time.
    const project = await pool.query<{ id: string }>(`INSERT INTO projects (user_id, workspace_id, url) VALUES ($1, $1, 'https://shop.example/') RETURNING id`, [userId]);
    const projectId = project.rows[0]!.id;
    return (
      await pool.query<{ id: string }>(`INSERT INTO scans (project_id, user_id, workspace_id, url, num_pages) VALUES ($1, $2, $2, 'https://shop.example/', 1) RETURNING id`, [
        projectId,
        userId,
      ])
    ).rows[0]!.id;
  }
  const scenario = await pool.query<{ id: string }>(
    `INSERT INTO scenarios (user_id, workspace_id, website, actions, scenario_code) VALUES ($1, $1, 'https://shop.example/', '[]'::jsonb, '') RETURNING id`,
    [userId],
  );
  return (await pool.query<{ id: string }>(`INSERT INTO scenario_runs (scenario_id, user_id, workspace_id) VALUES ($1, $2, $2) RETURNING id`, [scenario.rows[0]!.id, userId]))
    .rows[0]!.id;
}

interface RowState {
  state: string;
  attempts: number;
  error: string | null;
  heartbeat_at: Date | null;
  finished_at: Date | null;
}
async function read(table: TableName, id: string): Promise<RowState> {
  const { rows } = await database.pool.query<RowState>(`SELECT state, attempts, error, heartbeat_at, finished_at FROM ${TABLES[table]} WHERE id = $1`, [id]);
  return rows[0]!;
}

/** Makes the row's worker look dead: its last heartbeat older than the lapse. */
const lapse = (table: TableName, id: string) => database.pool.query(`UPDATE ${TABLES[table]} SET heartbeat_at = now() - interval '1 minute' WHERE id = $1`, [id]);

const LEASED: [TableName, LeasedTable][] = [
  ['scans', scans],
  ['public_scans', publicScans],
  ['scenario_runs', scenarioRuns],
  ['reports', reports],
];

/** The rules of a job that needs them all (a report's, server/jobs/report-job.ts). */
const rules: LeaseRules = { only: ne(reports.type, 'security'), missingHeartbeatIsStale: true, maxAttempts: 2, giveBackAttempt: true, resets: { progress: null } };

describe('the job lease', () => {
  it.each(LEASED)('claims a queued %s row once: a second claim of the held row finds nothing', async (name, table) => {
    const id = await queued(name);
    const lease = await claimLease(database.db, table, id, { timing });
    expect(lease?.row).toMatchObject({ id, state: 'running', attempts: 1, error: null });
    expect(await claimLease(database.db, table, id, { timing })).toBeUndefined();
    expect(await read(name, id)).toMatchObject({ state: 'running', attempts: 1, heartbeat_at: expect.any(Date) as Date });
  });

  it('adds the columns a job asks for to its claim', async () => {
    const id = await queued('scans');
    const lease = await claimLease(database.db, scans, id, { timing, extra: { checkStrikes: 1 } });
    expect(lease?.row.checkStrikes).toBe(1);
  });

  it.each(LEASED)('takes over a %s row whose heartbeat lapsed, and the holder that lost it can no longer write it', async (name, table) => {
    const id = await queued(name);
    const first = (await claimLease(database.db, table, id, { timing }))!;
    await lapse(name, id);
    const second = (await claimLease(database.db, table, id, { timing }))!;
    expect(second.row.attempts).toBe(2);
    expect(await first.putBack()).toBe(false);
    expect(await first.end('lost', { permanent: true })).toBeUndefined();
    expect(await read(name, id)).toMatchObject({ state: 'running', attempts: 2, error: null, finished_at: null });
    expect(await second.putBack()).toBe(true);
    expect(await read(name, id)).toMatchObject({ state: 'queued', attempts: 2, heartbeat_at: null });
  });

  it('does not take over a running row whose heartbeat is recent', async () => {
    const id = await queued('public_scans');
    await claimLease(database.db, publicScans, id, { timing });
    expect(await claimLease(database.db, publicScans, id, { timing: { ...timing, staleAfterSeconds: 3_600 } })).toBeUndefined();
  });

  it('renews the lease while it is held, with the columns the job adds, and stops when told', async () => {
    const id = await queued('scans');
    const lease = (await claimLease(database.db, scans, id, { timing }))!;
    await lapse('scans', id);
    const aged = (await read('scans', id)).heartbeat_at!;
    let beats = 0;
    const stop = lease.keepAlive(capturedLogger().log, () => ({ progress: { beat: ++beats } }));
    await vi.waitFor(async () => expect((await read('scans', id)).heartbeat_at!.getTime()).toBeGreaterThan(aged.getTime()), { timeout: 10_000, interval: 20 });
    stop();
    const { rows } = await database.pool.query<{ progress: { beat: number } }>('SELECT progress FROM scans WHERE id = $1', [id]);
    expect(rows[0]!.progress.beat).toBeGreaterThan(0);
    // Stopped: while another lease renews three times, this one renews no more, and its lapse lets a worker take it.
    const after = beats;
    const other = (await claimLease(database.db, publicScans, await queued('public_scans'), { timing }))!;
    let otherBeats = 0;
    const stopOther = other.keepAlive(capturedLogger().log, () => ({ grade: String(++otherBeats) }));
    await vi.waitFor(() => expect(otherBeats).toBeGreaterThanOrEqual(3), { timeout: 10_000, interval: 20 });
    stopOther();
    expect(beats).toBe(after);
    await lapse('scans', id);
    expect(await claimLease(database.db, scans, id, { timing })).toBeDefined();
  });

  it('logs a renewal that fails (whichever job holds the lease)', async () => {
    const id = await queued('public_scans');
    const lease = (await claimLease(database.db, publicScans, id, { timing }))!;
    // The same lease held through a pool that is gone: every renewal fails.
    const gone = new pg.Pool({ connectionString: database.url });
    await gone.end();
    const broken = new Lease(drizzle(gone) as unknown as Database['db'], publicScans, lease.row, timing);
    const { log, lines } = capturedLogger();
    const stop = broken.keepAlive(log);
    try {
      await vi.waitFor(() => expect(lines.some((line) => line.msg === 'heartbeat failed' && line.level === 40)).toBe(true), { timeout: 10_000, interval: 20 });
    } finally {
      stop();
    }
  });

  it('fails a row for good, or queues it again for a retry, with the reason', async () => {
    const failing = await queued('scenario_runs');
    const retried = await queued('scans');
    const failed = await (await claimLease(database.db, scenarioRuns, failing, { timing }))!.end('The run could not complete: boom', { permanent: true });
    expect(failed).toMatchObject({ id: failing, state: 'failed', error: 'The run could not complete: boom', heartbeatAt: null, finishedAt: expect.any(Date) as Date });
    const again = await (await claimLease(database.db, scans, retried, { timing }))!.end('The scan failed: boom', { permanent: false });
    expect(again).toMatchObject({ id: retried, state: 'queued', error: 'The scan failed: boom', heartbeatAt: null, finishedAt: null });
    // Queued again: the retry claims it, and the claim clears the reason of the attempt before.
    expect((await claimLease(database.db, scans, retried, { timing }))?.row).toMatchObject({ state: 'running', attempts: 2, error: null });
  });

  it('puts back in the queue only the rows still running among those it is given', async () => {
    const running = await queued('public_scans');
    const finished = await queued('public_scans');
    await claimLease(database.db, publicScans, running, { timing });
    await database.pool.query(`UPDATE public_scans SET state = 'completed', finished_at = now() WHERE id = $1`, [finished]);
    await putBackRunning(database.db, publicScans, [running, finished], capturedLogger().log);
    expect(await read('public_scans', running)).toMatchObject({ state: 'queued', heartbeat_at: null });
    expect(await read('public_scans', finished)).toMatchObject({ state: 'completed' });
  });
});

describe("the rules of a job's lease", () => {
  const progressOf = async (id: string) => (await database.pool.query<{ progress: unknown }>('SELECT progress FROM reports WHERE id = $1', [id])).rows[0]!.progress;

  it('claims only the rows the job runs', async () => {
    const id = await queued('reports');
    await database.pool.query(`UPDATE reports SET type = 'security' WHERE id = $1`, [id]);
    expect(await claimLease(database.db, reports, id, { timing, rules })).toBeUndefined();
    expect(await read('reports', id)).toMatchObject({ state: 'queued', attempts: 0 });
  });

  it('takes over a running row without any heartbeat only when the job counts it as stale', async () => {
    const id = await queued('reports');
    await database.pool.query(`UPDATE reports SET state = 'running', heartbeat_at = NULL WHERE id = $1`, [id]);
    expect(await claimLease(database.db, reports, id, { timing })).toBeUndefined();
    expect((await claimLease(database.db, reports, id, { timing, rules }))?.row).toMatchObject({ state: 'running', attempts: 1 });
  });

  it('says a row claimed more often than the cap is exhausted, and ends it for good with the columns it resets', async () => {
    const id = await queued('reports');
    const claims: Lease<typeof reports>[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      claims.push((await claimLease(database.db, reports, id, { timing, rules, extra: { progress: { done: 0, total: 1 } } }))!);
      if (attempt < 3) await lapse('reports', id);
    }
    expect(claims.map((lease) => lease.exhausted)).toEqual([false, false, true]);
    // Without a cap a row is never exhausted.
    expect(new Lease(database.db, reports, claims[2]!.row, timing).exhausted).toBe(false);
    expect(await claims[2]!.end('interrupted too often', { permanent: true })).toMatchObject({ state: 'failed', error: 'interrupted too often', progress: null, attempts: 3 });
  });

  it("gives the attempt back on a put-back when the job says so, and resets the job's columns", async () => {
    const given = await queued('reports');
    const kept = await queued('scans');
    await (await claimLease(database.db, reports, given, { timing, rules, extra: { progress: { done: 0, total: 1 } } }))!.putBack();
    expect(await read('reports', given)).toMatchObject({ state: 'queued', attempts: 0, heartbeat_at: null });
    expect(await progressOf(given)).toBeNull();
    await (await claimLease(database.db, scans, kept, { timing }))!.putBack();
    expect(await read('scans', kept)).toMatchObject({ state: 'queued', attempts: 1 });
  });

  it('writes and finishes the row only while the attempt holds it', async () => {
    const id = await queued('reports');
    const first = (await claimLease(database.db, reports, id, { timing, rules }))!;
    await lapse('reports', id);
    expect(await first.write({ progress: { done: 1, total: 2 } })).toMatchObject({ progress: { done: 1, total: 2 }, heartbeatAt: expect.any(Date) as Date });
    await lapse('reports', id);
    const second = (await claimLease(database.db, reports, id, { timing, rules }))!;
    expect(await first.write({ progress: { done: 2, total: 2 } })).toBeUndefined();
    expect(await first.finish({ state: 'completed', totalIssues: 1 })).toBeUndefined();
    expect(await read('reports', id)).toMatchObject({ state: 'running', attempts: 2, finished_at: null });
    const done = await second.finish({ state: 'completed', totalIssues: 3 });
    expect(done).toMatchObject({ state: 'completed', totalIssues: 3, progress: null, heartbeatAt: null, finishedAt: expect.any(Date) as Date });
    expect(await second.finish({ state: 'completed', totalIssues: 4 })).toBeUndefined();
  });
});
