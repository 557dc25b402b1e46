import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { startEmbeddedPostgres, type RunningPostgres } from './embedded';
import * as schema from './schema';
import { isConnectionError, Supervisor, type Availability, type SupervisorOptions } from './supervisor';

export { isConnectionError, type Availability } from './supervisor';

export type Db = NodePgDatabase<typeof schema>;

export interface Database {
  db: Db;
  pool: pg.Pool;
  kind: 'embedded' | 'external';
  /** Connection string, for clients that need a connection of their own (LISTEN). */
  url: string;
  /** Answers whether the database takes queries now. */
  ping(): Promise<boolean>;
  /** Up, or down with what clients are told while it is brought back (restarted or reconnected). */
  availability(): Availability;
  /** Calls `listener` each time the database comes back after a loss; returns the unsubscribe function. */
  onRecovered(listener: () => void): () => void;
  /** Resolves once the database is up (at once if it is), or when it is closing or `signal` aborts. */
  whenUp(signal?: AbortSignal): Promise<void>;
  /** Checks on a connection of its own that the database answers (starting its recovery if not), then tells. */
  check(): Promise<Availability>;
  close(): Promise<void>;
}

/**
 * The SQL migrations: beside this file in the sources; from a bundle (out/main or out/main/chunks), the
 * first ancestor folder that holds server/db/migrations.
 */
function migrationsFolder(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [join(here, 'migrations')];
  for (let dir = here, i = 0; i < 5; dir = dirname(dir), i++) candidates.push(join(dir, 'server', 'db', 'migrations'));
  const found = candidates.find((dir) => existsSync(join(dir, 'meta', '_journal.json')));
  if (!found) throw new Error(`SQL migrations not found (looked in ${candidates.join(', ')})`);
  return found;
}

export interface OpenDatabaseOptions {
  databaseUrl?: string;
  /** Where the embedded cluster lives when no DATABASE_URL is given. */
  embeddedDir: string;
  embeddedPassword: string;
  log: (level: 'debug' | 'info' | 'warn' | 'error', message: string) => void;
}

/** How often an external database is checked while it seems up: a lost server is noticed within this time. */
const EXTERNAL_PROBE_MS = 5_000;

/** Connects to DATABASE_URL or starts the embedded cluster, then applies pending migrations. */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  let embedded: RunningPostgres | undefined;
  const url = options.databaseUrl ?? (embedded = await startEmbeddedPostgres({ dir: options.embeddedDir, password: options.embeddedPassword, log: options.log })).url;
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 10_000 });
  const db = drizzle(pool, { schema });
  try {
    await aloneOnDatabase(url, () => migrate(db, { migrationsFolder: migrationsFolder() }));
  } catch (error) {
    await pool.end().catch(() => undefined);
    await embedded?.stop();
    throw error;
  }
  const ping = async () => {
    try {
      // Bounded: a connection whose server process hangs must not hold /health forever.
      await pool.query({ text: 'SELECT 1', query_timeout: 2_000 } as pg.QueryConfig);
      return true;
    } catch {
      return false;
    }
  };
  const supervisor = new Supervisor(supervision(embedded, () => answersOnItsOwn(url), options.log));
  // An idle pooled connection that breaks emits here (the pool drops it); without a listener it would crash the process.
  pool.on('error', (error) => {
    options.log(supervisor.availability.state === 'up' ? 'warn' : 'debug', `database connection error: ${error.message}`);
    if (isConnectionError(error)) void supervisor.suspect(error.message);
  });
  const stopWatching = embedded?.onExit((reason) => supervisor.lost(`PostgreSQL ${reason}`));
  // An external server gives no exit signal: check it now and then while no error says it is gone.
  const probe = embedded
    ? undefined
    : setInterval(() => {
        if (supervisor.availability.state === 'up') void supervisor.suspect('no answer to a periodic check');
      }, EXTERNAL_PROBE_MS);
  probe?.unref();

  let closing: Promise<void> | undefined;
  return {
    db,
    pool,
    url,
    kind: embedded ? 'embedded' : 'external',
    async ping() {
      const up = await ping();
      if (!up) void supervisor.suspect('no answer to a health check');
      return up;
    },
    availability: () => supervisor.availability,
    onRecovered: (listener) => supervisor.onChange((availability) => availability.state === 'up' && listener()),
    whenUp: (signal) => supervisor.whenUp(signal),
    async check() {
      await supervisor.suspect('no answer to a check after a failed request');
      return supervisor.availability;
    },
    close() {
      closing ??= (async () => {
        if (probe) clearInterval(probe);
        stopWatching?.();
        await supervisor.stop();
        await pool.end().catch(() => undefined);
        await embedded?.stop();
      })();
      return closing;
    },
  };
}

/** Arbitrary key of the session lock that lets one process at a time set up a shared database. */
const SETUP_LOCK = 7_164_237_001;

/**
 * Runs `run` (through the pool) while holding a session advisory lock on a connection of its own, so that team-mode
 * servers and workers starting together on one database take turns at creating shared objects: the migrator takes
 * no lock (two processes creating one table at once fail a start), and pg-boss's queue creation deadlocks when two
 * processes attach queue partitions at once. The later processes find nothing left to do.
 */
export async function aloneOnDatabase<T>(url: string, run: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [SETUP_LOCK]);
    return await run();
  } finally {
    // Ending the session releases the lock.
    await client.end().catch(() => undefined);
  }
}

/**
 * Whether the server takes a new connection and a query, on a connection of its own: a pool busy with long
 * queries must not pass for a lost database.
 */
async function answersOnItsOwn(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000, query_timeout: 3_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Embedded: restart PostgreSQL. External: wait until DATABASE_URL answers again. */
function supervision(embedded: RunningPostgres | undefined, ping: () => Promise<boolean>, log: OpenDatabaseOptions['log']): SupervisorOptions {
  const answers = async () => {
    if (!(await ping())) throw new Error('the database does not answer yet');
  };
  if (!embedded) {
    return {
      log,
      probe: ping,
      recover: answers,
      describe: (attempts) => `The database (DATABASE_URL) cannot be reached; reconnecting${attempts ? ` (attempt ${attempts})` : ''}. Try again in a few seconds.`,
    };
  }
  return {
    log,
    probe: ping,
    async recover() {
      await embedded.restart();
      await answers();
    },
    describe: (attempts) => `The embedded database stopped unexpectedly and is being restarted${attempts ? ` (attempt ${attempts})` : ''}. Try again in a few seconds.`,
  };
}
