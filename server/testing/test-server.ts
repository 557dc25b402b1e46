import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../server';
import { clusterDir } from '../db/embedded';
import { loadSecrets } from '../secrets';
import { freshDatabase, sharedPostgresUrl } from './fresh-database';

type StartOptions = Parameters<typeof startServer>[1] & {
  /**
   * Start the server's own embedded PostgreSQL under its data dir, as the desktop app does, instead of a database
   * on the run's shared server: for tests of what only the embedded database does (its restart, its files).
   */
  embedded?: boolean;
};

export type TestServer = RunningServer & {
  dataDir: string;
  /** The server's database, for a test's own connections. */
  databaseUrl: string;
  stop(): Promise<void>;
};

/**
 * A running server on a fresh data dir, a free port and a database of its own: a clone of the migrated template on
 * the run's shared PostgreSQL (unless `env` names a DATABASE_URL or `embedded` is asked); `stop()` closes it and
 * removes the data and the database.
 */
export async function startTestServer(env: Record<string, string> = {}, { embedded = false, ...options }: StartOptions = {}): Promise<TestServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'vibeeval-test-'));
  // Without the global setup (a config that lacks it) each server falls back to an embedded cluster of its own.
  const database = env.DATABASE_URL || embedded || !sharedPostgresUrl() ? undefined : await freshDatabase();
  // Tests about other things are not held by plan limits (the accounts they make have no subscription); the
  // tests of the limits themselves start their server with VIBEEVAL_UNSUBSCRIBED_TIER=basic.
  // Every test signs up and in from 127.0.0.1: the per-client limits are for a public server's many clients (the
  // tests of those limits set their own).
  const defaults = { VIBEEVAL_UNSUBSCRIBED_TIER: 'enterprise', VIBEEVAL_API_PLAN: 'free', SIGNUP_MAX_PER_IP: '1000', SIGNIN_MAX_PER_IP: '1000' };
  let server: RunningServer;
  try {
    server = await startServer(
      { PATH: process.env.PATH, LOG_LEVEL: 'warn', PORT: '0', VIBEEVAL_DATA_DIR: dataDir, ...defaults, ...(database && { DATABASE_URL: database.url }), ...env },
      options,
    );
  } catch (error) {
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    ...server,
    dataDir,
    databaseUrl: server.config.databaseUrl ?? (await embeddedDatabaseUrl(dataDir)),
    async stop() {
      await server.close();
      await database?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export { startSmtpCapture } from './smtp-capture';

/** The connection string of the embedded PostgreSQL a test server started under `dataDir`. */
export async function embeddedDatabaseUrl(dataDir: string): Promise<string> {
  // postmaster.pid's fourth line is the port the cluster listens on.
  const pid = await readFile(join(await clusterDir(join(dataDir, 'pg')), 'postmaster.pid'), 'utf8');
  const port = Number(pid.split('\n')[3]);
  const { pgPassword } = await loadSecrets(dataDir);
  return `postgres://vibeeval:${encodeURIComponent(pgPassword)}@127.0.0.1:${port}/vibeeval`;
}
