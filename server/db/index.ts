import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { startEmbeddedPostgres, type RunningPostgres } from './embedded';
import * as schema from './schema';

export type Db = NodePgDatabase<typeof schema>;

export interface Database {
  db: Db;
  pool: pg.Pool;
  kind: 'embedded' | 'external';
  /** Connection string, for clients that need a connection of their own (LISTEN). */
  url: string;
  /** Answers whether the database takes queries now. */
  ping(): Promise<boolean>;
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

/** Connects to DATABASE_URL or starts the embedded cluster, then applies pending migrations. */
export async function openDatabase(options: OpenDatabaseOptions): Promise<Database> {
  let embedded: RunningPostgres | undefined;
  const url =
    options.databaseUrl ??
    (embedded = await startEmbeddedPostgres({ dir: options.embeddedDir, password: options.embeddedPassword, log: options.log })).url;
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 10_000 });
  pool.on('error', (error) => options.log('warn', `database connection error: ${error.message}`));
  const db = drizzle(pool, { schema });
  try {
    await migrate(db, { migrationsFolder: migrationsFolder() });
  } catch (error) {
    await pool.end().catch(() => undefined);
    await embedded?.stop();
    throw error;
  }
  let closing: Promise<void> | undefined;
  return {
    db,
    pool,
    url,
    kind: embedded ? 'embedded' : 'external',
    async ping() {
      try {
        await pool.query('SELECT 1');
        return true;
      } catch {
        return false;
      }
    },
    close() {
      closing ??= (async () => {
        await pool.end().catch(() => undefined);
        await embedded?.stop();
      })();
      return closing;
    },
  };
}
