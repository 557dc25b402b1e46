import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { openDatabase, type Database } from '../db';
import { SHARED_POSTGRES, TEMPLATE_DATABASE } from './global-postgres';

export interface FreshDatabase {
  /** Connection string of the new database (pass it as DATABASE_URL). */
  url: string;
  /** Drops the database, closing whatever connections are left on it. */
  drop(): Promise<void>;
}

/** The admin URL of the run's shared PostgreSQL (server/testing/global-postgres.ts), if the global setup ran. */
export function sharedPostgresUrl(): string | undefined {
  return inject(SHARED_POSTGRES);
}

async function asAdmin<T>(adminUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 10_000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** PostgreSQL refuses to copy a template while another session is connected to it (SQLSTATE 55006). */
const templateBusy = (error: unknown) => (error as { code?: string }).code === '55006' && /being accessed by other users/.test((error as Error).message);

/**
 * A new database on the run's shared PostgreSQL, cloned from the migrated template; with `migrated: false` an empty
 * one, for tests of the migrations themselves.
 */
export async function freshDatabase({ migrated = true }: { migrated?: boolean } = {}): Promise<FreshDatabase> {
  const adminUrl = sharedPostgresUrl();
  if (!adminUrl) throw new Error('No shared PostgreSQL: run the tests through vitest.config.mts, whose global setup starts it.');
  const name = `t_${randomBytes(8).toString('hex')}`;
  await asAdmin(adminUrl, async (client) => {
    // Nothing connects to the template (the setup closed it to connections), but a session that did would hold
    // every clone back until it left: wait a little for it rather than fail the test.
    for (let attempt = 1; ; attempt++) {
      try {
        await client.query(`CREATE DATABASE ${name} TEMPLATE ${migrated ? TEMPLATE_DATABASE : 'template0'}`);
        return;
      } catch (error) {
        if (!templateBusy(error) || attempt >= 8) throw error;
        await new Promise((resolve) => setTimeout(resolve, 25 * 2 ** attempt * (0.5 + Math.random())));
      }
    }
  });
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  let dropping: Promise<void> | undefined;
  return {
    url: url.href,
    drop() {
      dropping ??= asAdmin(adminUrl, async (client) => void (await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)));
      return dropping;
    },
  };
}

/** The product's database handle (`openDatabase`) on a fresh database; `close()` also drops it. */
export async function openFreshDatabase(): Promise<Database> {
  const fresh = await freshDatabase();
  let database: Database;
  try {
    database = await openDatabase({ databaseUrl: fresh.url, embeddedDir: '', embeddedPassword: '', log: () => undefined });
  } catch (error) {
    await fresh.drop();
    throw error;
  }
  return {
    ...database,
    async close() {
      await database.close();
      await fresh.drop();
    },
  };
}

const MIGRATIONS = join(dirname(fileURLToPath(import.meta.url)), '..', 'db', 'migrations');

/** A database that the migrations up to one made, for a test of the migration after it (partlyMigrated). */
export interface PartlyMigrated {
  /** Two connections to it. */
  pool: pg.Pool;
  /** Runs the migrations that have not run yet, up to and with the journal's entry `lastIdx` (0021 is 21). */
  migrateUpTo(lastIdx: number): Promise<void>;
  /** Closes the pool and drops the database and its copy of the migrations. */
  close(): Promise<void>;
}

/**
 * A fresh, empty database with the migrations up to `lastIdx` run: the test fills it as a database of that version
 * was, then runs the migration it tests (`migrateUpTo`). The migrations run from a copy whose journal stops there.
 */
export async function partlyMigrated(lastIdx: number): Promise<PartlyMigrated> {
  const dir = await mkdtemp(join(tmpdir(), `vibeeval-migration-${String(lastIdx + 1).padStart(4, '0')}-`));
  const folder = join(dir, 'migrations');
  const database = await freshDatabase({ migrated: false });
  const pool = new pg.Pool({ connectionString: database.url, max: 2 });
  // The database's drop at the end tells a connection still closing that it ends: expected, not an error of the test.
  pool.on('error', () => undefined);
  const close = async () => {
    await pool.end();
    await database.drop();
    await rm(dir, { recursive: true, force: true });
  };
  const migrateUpTo = async (last: number) => {
    const journal = JSON.parse(await readFile(join(MIGRATIONS, 'meta', '_journal.json'), 'utf8')) as { entries: { idx: number }[] };
    await writeFile(join(folder, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries: journal.entries.filter((entry) => entry.idx <= last) }));
    await migrate(drizzle(pool), { migrationsFolder: folder });
  };
  try {
    await cp(MIGRATIONS, folder, { recursive: true });
    await migrateUpTo(lastIdx);
  } catch (error) {
    await close();
    throw error;
  }
  return { pool, migrateUpTo, close };
}

/** What the tests of a file read of their database (databaseForTests). */
export type TestDatabase = Pick<Database, 'db' | 'pool' | 'url'>;

/**
 * A fresh database (openFreshDatabase) for the tests of one file: opened in a beforeAll registered here (hooks the
 * file registers after this call run after it, and may use it), closed and dropped in an afterAll. Read its fields
 * from inside hooks and tests.
 */
export function databaseForTests(): TestDatabase {
  let opened: Database | undefined;
  beforeAll(async () => {
    opened = await openFreshDatabase();
  }, 60_000);
  afterAll(() => opened?.close());
  const open = (): Database => {
    if (!opened) throw new Error("the tests' database is opened in a beforeAll: read it from inside a hook or a test");
    return opened;
  };
  return {
    get db() {
      return open().db;
    },
    get pool() {
      return open().pool;
    },
    get url() {
      return open().url;
    },
  };
}

/**
 * Ends the server side of connection `pid` (`pg_backend_pid()`) from a connection of its own, as a database restart
 * would, and waits a moment so the server's notice reaches the client while it sits between two queries.
 */
export async function terminateBackend(url: string, pid: number): Promise<void> {
  const killer = new pg.Client({ connectionString: url });
  await killer.connect();
  await killer.query('select pg_terminate_backend($1)', [pid]);
  await killer.end();
  await new Promise((resolve) => setTimeout(resolve, 200));
}
