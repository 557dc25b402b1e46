import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, terminateBackend, type FreshDatabase } from '../testing/fresh-database';
import * as schema from './schema';
import { transaction } from './transaction';

describe('transaction()', () => {
  let root: string;
  let database: FreshDatabase;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'vibeeval-tx-'));
    database = await freshDatabase({ migrated: false });
  }, 60_000);
  afterAll(async () => {
    await database?.drop();
    if (root) await rm(root, { recursive: true, force: true });
  });

  const within = <T>(ms: number, promise: Promise<T>) => Promise.race([promise, new Promise<'timed out'>((resolve) => setTimeout(() => resolve('timed out'), ms))]);

  it('commits, rolls back, and gives its client back even when the connection died before begin', async () => {
    // One client only: a client that is not given back blocks the next transaction and the pool's end.
    const pool = new pg.Pool({ connectionString: database.url, max: 1 });
    pool.on('error', () => undefined);
    const db = drizzle(pool, { schema });
    await pool.query('create table if not exists tx_probe (v text)');

    await transaction(db, async (tx) => tx.execute(`insert into tx_probe values ('kept')`));
    await expect(
      transaction(db, async (tx) => {
        await tx.execute(`insert into tx_probe values ('rolled back')`);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect((await pool.query('select v from tx_probe')).rows).toEqual([{ v: 'kept' }]);

    // A connection lost between the pool handing out its client and `begin` (as when the database restarts):
    // the pool's 'acquire' event comes before begin is sent, so the fault lands exactly there.
    let failNextBegin = true;
    pool.on('acquire', (client) => {
      if (!failNextBegin) return;
      failNextBegin = false;
      const query = client.query.bind(client) as (text: string) => Promise<unknown>;
      (client as unknown as { query: (text: string) => Promise<unknown> }).query = (text: string) =>
        text === 'begin' ? Promise.reject(new Error('Connection terminated unexpectedly')) : query(text);
    });
    await expect(transaction(db, async (tx) => tx.execute('select 1'))).rejects.toThrow('Connection terminated unexpectedly');

    // The connection ends while the transaction waits between two queries: no uncaught error, the client goes.
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => void uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      await expect(
        transaction(db, async (tx) => {
          const { rows } = await tx.execute('select pg_backend_pid() as pid');
          await terminateBackend(database.url, (rows[0] as { pid: number }).pid);
          await tx.execute('select 1');
        }),
      ).rejects.toThrow();
    } finally {
      process.off('uncaughtException', onUncaught);
    }
    expect(uncaught).toEqual([]);

    expect(
      await within(
        5_000,
        transaction(db, async (tx) => tx.execute('select 1')).then(() => 'ran'),
      ),
    ).toBe('ran');
    expect(
      await within(
        5_000,
        pool.end().then(() => 'ended'),
      ),
    ).toBe('ended');
  });
});
