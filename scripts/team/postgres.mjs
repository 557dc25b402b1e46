// A real PostgreSQL server for team-mode tests and benchmarks: Debian's postgresql package, a fresh cluster in a
// temp dir, started as its own user (`postgres` when we are root, else the current user) on a free 127.0.0.1 port,
// with a password user and a database for vibeeval. Plain ESM so that both vitest and a Node script import it.
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BIN_DIRS = ['/usr/lib/postgresql/17/bin', '/usr/lib/postgresql/16/bin', '/usr/lib/postgresql/15/bin'];

/** The directory holding initdb and pg_ctl; throws with the install hint when Debian's postgresql is missing. */
export function postgresBinDir() {
  const found = [process.env.VIBEEVAL_PG_BIN, ...BIN_DIRS].find((dir) => dir && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')));
  if (!found) {
    throw new Error('PostgreSQL server binaries (initdb, pg_ctl) were not found: install them with `apt-get install postgresql` (Debian/Ubuntu).');
  }
  return found;
}

/** A free TCP port on 127.0.0.1 (taken by nobody at the moment of asking). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** The uid and gid that run the server: `postgres` when we are root (PostgreSQL refuses to run as root). */
function serverUser() {
  if (process.getuid?.() !== 0) return undefined;
  const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
  if (!Number.isInteger(uid) || !Number.isInteger(gid)) throw new Error("user postgres not found: install Debian's postgresql package");
  return { uid, gid };
}

function run(bin, args, user, what) {
  const result = spawnSync(bin, args, { encoding: 'utf8', ...(user ?? {}), env: { ...process.env, LC_ALL: 'C', PGTZ: 'UTC' } });
  if (result.status !== 0) {
    throw new Error(`${what} failed (${result.status ?? result.signal}): ${(result.stderr || result.stdout || '').trim().slice(-2000)}`);
  }
  return result.stdout;
}

/**
 * Starts a fresh PostgreSQL cluster. Resolves to its `url` (password user `vibeeval`, database `vibeeval`), its
 * `port`, `dataDir` (the temp dir holding the cluster, its socket and log) and `stop()`, which stops the server
 * and removes the dir. `superUrl` reaches the same database as the superuser over the socket dir.
 */
export async function startPostgres({ port } = {}) {
  const bin = postgresBinDir();
  const user = serverUser();
  const dataDir = mkdtempSync(join(tmpdir(), 'vibeeval-pg-'));
  if (user) chownSync(dataDir, user.uid, user.gid);
  const cluster = join(dataDir, 'cluster');
  const logFile = join(dataDir, 'postgres.log');
  const password = randomBytes(18).toString('base64url');
  const passwordFile = join(dataDir, 'superuser-password');
  writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
  if (user) chownSync(passwordFile, user.uid, user.gid);
  const chosenPort = port ?? (await freePort());
  let started = false;
  const stop = async () => {
    if (started) {
      spawnSync(join(bin, 'pg_ctl'), ['-D', cluster, '-m', 'immediate', '-w', '-t', '30', 'stop'], { ...(user ?? {}), stdio: 'ignore' });
      started = false;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    // Local (socket) connections trust the OS user; TCP connections need a password, as on a real deployment.
    run(
      join(bin, 'initdb'),
      ['-D', cluster, '-U', 'postgres', '-E', 'UTF8', '--no-sync', '--auth-local=trust', '--auth-host=scram-sha-256', `--pwfile=${passwordFile}`],
      user,
      'initdb',
    );
    // Throwaway data: durability settings off, room for several server and worker processes' pools.
    const options = [
      `-c port=${chosenPort}`,
      `-c listen_addresses=127.0.0.1`,
      `-c unix_socket_directories=${dataDir}`,
      '-c max_connections=200',
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
    ].join(' ');
    run(join(bin, 'pg_ctl'), ['-D', cluster, '-o', options, '-l', logFile, '-w', '-t', '60', 'start'], user, 'pg_ctl start');
    started = true;
    const psql = join(bin, 'psql');
    const vibeevalPassword = randomBytes(18).toString('base64url');
    const sql = (statement, database = 'postgres') =>
      run(psql, ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-h', dataDir, '-p', String(chosenPort), '-U', 'postgres', '-d', database, '-c', statement], user, 'psql');
    sql(`CREATE ROLE vibeeval LOGIN PASSWORD '${vibeevalPassword}'`);
    sql('CREATE DATABASE vibeeval OWNER vibeeval');
    return {
      url: `postgres://vibeeval:${vibeevalPassword}@127.0.0.1:${chosenPort}/vibeeval`,
      superUrl: `postgres://postgres:${password}@127.0.0.1:${chosenPort}/vibeeval`,
      port: chosenPort,
      dataDir,
      /** The server's log so far (for a failing test's message). */
      log: () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : ''),
      stop,
    };
  } catch (error) {
    const log = existsSync(logFile) ? readFileSync(logFile, 'utf8').trim().slice(-1500) : '';
    await stop();
    throw log ? new Error(`${error.message}\n${log}`) : error;
  }
}
