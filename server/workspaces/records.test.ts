import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, terminateBackend, type FreshDatabase } from '../testing/fresh-database';
import { inTransaction } from './records';

describe("the workspaces' transactions", () => {
  let database: FreshDatabase;
  beforeAll(async () => {
    database = await freshDatabase({ migrated: false });
  }, 60_000);
  afterAll(async () => {
    await database?.drop();
  });

  it('take a connection lost between two queries as a failed transaction, never an uncaught error, and give the client back', async () => {
    const pool = new pg.Pool({ connectionString: database.url, max: 1 });
    pool.on('error', () => undefined);
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => void uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      await expect(
        inTransaction(pool, async (client) => {
          const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
          await terminateBackend(database.url, rows[0]!.pid);
          await client.query('select 1');
        }),
      ).rejects.toThrow();
    } finally {
      process.off('uncaughtException', onUncaught);
    }
    expect(uncaught).toEqual([]);
    // One client only: the broken one was destroyed, not kept, and a new one serves the next transaction.
    expect(await inTransaction(pool, async (client) => (await client.query<{ one: number }>('select 1 as one')).rows[0]!.one)).toBe(1);
    await pool.end();
  });
});
