import { randomUUID } from 'node:crypto';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../db';
import { reports } from '../db/schema';
import { databaseForTests } from '../testing/fresh-database';
import { personalWorkspace } from '../testing/workspace-rows';
import { claimLease, Lease } from './lease';
import { capturedLogger } from './testing';
import { progressWriter } from './report-job';

// A report's progress, on the real PostgreSQL: stored and published while its attempt holds the report, and a write
// that fails is logged (it used to be dropped without a word).

const database = databaseForTests();
let userId: string;

beforeAll(async () => {
  userId = await personalWorkspace(database.pool, randomUUID());
});

async function claimedReport(): Promise<Lease<typeof reports>> {
  const { rows } = await database.pool.query<{ id: string }>(
    `INSERT INTO reports (user_id, workspace_id, type, url) VALUES ($1, $1, 'accessibility', 'https://shop.example/') RETURNING id`,
    [userId],
  );
  return (await claimLease(database.db, reports, rows[0]!.id))!;
}

describe("a report's progress", () => {
  it('is stored and published at most every 300 ms, the last step at once', async () => {
    const lease = await claimedReport();
    const published: unknown[] = [];
    let clock = 10_000;
    const write = progressWriter(
      lease,
      async (row) => published.push(row.progress),
      capturedLogger().log,
      () => clock,
    );
    write({ done: 1, total: 3 });
    clock += 100;
    write({ done: 2, total: 3 });
    clock += 100;
    write({ done: 3, total: 3, message: 'Done' });
    await vi.waitFor(() => expect(published).toHaveLength(2), { timeout: 10_000, interval: 20 });
    expect(published).toEqual(
      expect.arrayContaining([
        { done: 1, total: 3 },
        { done: 3, total: 3, message: 'Done' },
      ]),
    );
  });

  it('is logged when it cannot be stored', async () => {
    const lease = await claimedReport();
    const gone = new pg.Pool({ connectionString: database.url });
    await gone.end();
    const broken = new Lease(drizzle(gone) as unknown as Database['db'], reports, lease.row);
    const { log, lines } = capturedLogger();
    const published: unknown[] = [];
    progressWriter(broken, async (row) => published.push(row), log)({ done: 1, total: 1 });
    await vi.waitFor(() => expect(lines.some((line) => line.msg === 'could not store the report progress' && line.level === 40)).toBe(true), { timeout: 10_000, interval: 20 });
    expect(published).toEqual([]);
  });
});
