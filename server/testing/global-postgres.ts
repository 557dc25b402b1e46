// Vitest global setup: one PostgreSQL for the whole run, with a template database migrated once. Each test server
// gets a database cloned from the template (server/testing/fresh-database.ts), which takes tens of milliseconds,
// where a cluster of its own costs an initdb, a start and a migration run (1.4 s on a quiet machine, several
// seconds on a busy one).
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../db';
import { startEmbeddedPostgres } from '../db/embedded';

/** The key under which the workers find the admin URL (vitest's provide/inject). */
export const SHARED_POSTGRES = 'sharedPostgresUrl';
/** The migrated database every test database is cloned from. */
export const TEMPLATE_DATABASE = 'vibeeval_template';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared cluster's admin URL (database `postgres`); absent when the global setup did not run. */
    [SHARED_POSTGRES]: string;
  }
}

/**
 * Two workers, each with a few servers at once (team tests start two or three), each server with a pool of 10,
 * its listeners and the test's own pools: 300 leaves room for all of them.
 */
const MAX_CONNECTIONS = 300;

/**
 * Vitest calls a global setup once per test project (this config has two: shared and isolated processes): the first
 * call starts the cluster, every call provides its URL to its project, and the last teardown stops it.
 */
const shared = globalThis as typeof globalThis & { vibeevalTestPostgres?: { started: Promise<{ url: string; stop: () => Promise<void> }>; users: number } };

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const entry = (shared.vibeevalTestPostgres ??= { started: startShared(), users: 0 });
  entry.users++;
  const { url, stop } = await entry.started;
  project.provide(SHARED_POSTGRES, url);
  return async () => {
    if (--entry.users > 0) return;
    shared.vibeevalTestPostgres = undefined;
    await stop();
  };
}

async function startShared(): Promise<{ url: string; stop: () => Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), 'vibeeval-test-pg-'));
  const log = (level: 'debug' | 'info' | 'warn' | 'error', message: string) => {
    if (level === 'error') console.error(`test PostgreSQL: ${message}`);
  };
  let postgres;
  try {
    postgres = await startEmbeddedPostgres({ dir: join(root, 'pg'), password: randomBytes(18).toString('base64url'), maxConnections: MAX_CONNECTIONS, log });
  } catch (error) {
    await rm(root, { recursive: true, force: true });
    throw error;
  }
  const running = postgres;
  // A run killed before its teardown must not leave the cluster behind: it runs in a process group of its own.
  const killOnExit = () => {
    try {
      const pid = Number(readFileSync(join(running.dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
      if (pid > 0) process.kill(pid, 'SIGQUIT');
    } catch {
      // Already stopped.
    }
  };
  process.once('exit', killOnExit);
  const teardown = async () => {
    process.off('exit', killOnExit);
    await running.stop();
    await rm(root, { recursive: true, force: true });
    // As root the cluster may live outside the temp dir (embedded.ts's clusterDir).
    if (!running.dir.startsWith(root)) await rm(running.dir, { recursive: true, force: true });
  };
  try {
    const admin = new URL(running.url);
    admin.pathname = '/postgres';
    const client = new pg.Client({ connectionString: admin.href });
    await client.connect();
    try {
      // The cluster lives as long as the run: writes need not survive a crash of the machine, and waiting for
      // the disk on every commit and every cloned database is most of what a busy machine spends here.
      for (const setting of ['fsync', 'synchronous_commit', 'full_page_writes']) await client.query(`ALTER SYSTEM SET ${setting} = off`);
      await client.query('SELECT pg_reload_conf()');
      await client.query(`CREATE DATABASE ${TEMPLATE_DATABASE}`);
    } finally {
      await client.end();
    }
    const template = new URL(running.url);
    template.pathname = `/${TEMPLATE_DATABASE}`;
    // The product's own path applies the migrations.
    const database = await openDatabase({ databaseUrl: template.href, embeddedDir: '', embeddedPassword: '', log });
    await database.close();
    // Nobody connects to the template from now on: CREATE DATABASE … TEMPLATE refuses while anyone is connected.
    const closer = new pg.Client({ connectionString: admin.href });
    await closer.connect();
    try {
      await closer.query(`ALTER DATABASE ${TEMPLATE_DATABASE} WITH ALLOW_CONNECTIONS false IS_TEMPLATE true`);
    } finally {
      await closer.end();
    }
    return { url: admin.href, stop: teardown };
  } catch (error) {
    await teardown();
    throw error;
  }
}
