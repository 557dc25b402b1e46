import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Db } from './index';
import * as schema from './schema';

/**
 * Runs `work` in a transaction on a pool client of its own, and always gives that client back.
 *
 * Drizzle's `db.transaction` (0.45) does not release its client when `begin` fails, which is what happens when
 * the connection was lost (a database restart): each failure leaks one of the pool's clients, and `pool.end()` at
 * shutdown then waits forever. Here a client whose `begin`, `commit` or `rollback` failed is destroyed rather than
 * returned, since its connection can't be trusted, and a connection lost between queries is not an uncaught error.
 */
export async function transaction<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  const pool = (db as Db & { $client: unknown }).$client;
  if (!(pool instanceof pg.Pool)) throw new Error('transaction() needs a database on a pool');
  return poolTransaction(pool, (client) => work(drizzle(client, { schema })));
}

/** The same on a pool's client itself, for SQL written by hand. */
export async function poolTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  // A checked-out client has no 'error' listener of the pool's: a connection lost between two queries would
  // otherwise be thrown as an uncaught exception. The next query fails anyway; the client is then destroyed.
  const onError = (error: Error) => {
    broken = error;
  };
  client.on('error', onError);
  const run = (text: string) =>
    client.query(text).catch((error: Error) => {
      broken = error;
      throw error;
    });
  try {
    await run('begin');
    let result: T;
    try {
      result = await work(client);
    } catch (error) {
      await run('rollback').catch(() => undefined);
      throw error;
    }
    await run('commit');
    return result;
  } finally {
    client.off('error', onError);
    client.release(broken);
  }
}
