// Starts the built CLI (`node bin/vibeeval.cjs serve|worker`) as team-mode processes on one PostgreSQL, waits
// until each is ready, and kills them (SIGTERM or -9). Plain ESM, shared by the cluster test and bench:team.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('../..', import.meta.url).pathname;
const CLI = join(root, 'bin', 'vibeeval.cjs');
const KEEP_LINES = 400;

/**
 * Spawns `vibeeval <command>` with `env` on top of this process's environment (DATABASE_URL at least). A `serve`
 * process listens on a port of its own choosing on 127.0.0.1 (PORT=0: the port is taken by the process itself, so no
 * other process can take it between a check and the listen) unless `env.PORT` names one, says where it runs, and is
 * ready when /health answers there; a `worker` is ready when it says it is running. Each process gets its own data dir unless VIBEEVAL_DATA_DIR is set.
 * Resolves to { name, pid, origin?, output(), kill(signal), exited }.
 */
export async function startVibeeval(command, { env = {}, name = command, readyTimeoutMs = 60_000 } = {}) {
  if (!existsSync(join(root, 'out', 'main', 'cli.js'))) throw new Error('vibeeval is not built: run `npx electron-vite build` first');
  const ownDataDir = env.VIBEEVAL_DATA_DIR ? undefined : mkdtempSync(join(tmpdir(), `vibeeval-${name}-`));
  const port = command === 'serve' ? Number(env.PORT ?? 0) : undefined;
  const childEnv = {
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    ...(ownDataDir ? { VIBEEVAL_DATA_DIR: ownDataDir } : {}),
    ...(port !== undefined ? { PORT: String(port) } : {}),
    ...env,
  };
  const child = spawn(process.execPath, [CLI, command], { cwd: root, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines = [];
  const keep = (chunk) => {
    for (const line of String(chunk).split('\n')) if (line) lines.push(line);
    if (lines.length > KEEP_LINES) lines.splice(0, lines.length - KEEP_LINES);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  let gone = false;
  void exited.then(() => {
    gone = true;
    if (ownDataDir) rmSync(ownDataDir, { recursive: true, force: true });
  });
  const output = () => lines.join('\n');
  const handle = {
    name,
    pid: child.pid,
    /** Where a `serve` process runs: known from the start with a given port, else once it says where it listens. */
    origin: port ? `http://127.0.0.1:${port}` : undefined,
    output,
    exited,
    /** Kills the process ('SIGKILL' = kill -9, 'SIGTERM' = a clean stop) and waits for it to exit. */
    async kill(signal = 'SIGTERM') {
      if (!gone) child.kill(signal);
      return exited;
    },
  };
  try {
    await waitUntilReady(command, handle, () => gone, readyTimeoutMs);
  } catch (error) {
    await handle.kill('SIGKILL');
    throw new Error(`${name} did not start: ${error.message}\n${output().slice(-3000)}`);
  }
  return handle;
}

/** The line `vibeeval serve` prints once it listens (server/main.ts): the address it listens on is the last one. */
const RUNNING_AT = /vibeeval is running at (?:\S+ \(listening on )?(http:\/\/[\w.:[\]-]+)/;

async function waitUntilReady(command, handle, isGone, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (isGone()) throw new Error('the process exited');
    if (command === 'worker') {
      if (handle.output().includes('vibeeval worker is running')) return;
    } else {
      handle.origin ??= RUNNING_AT.exec(handle.output())?.[1];
      const ok =
        handle.origin !== undefined &&
        (await fetch(`${handle.origin}/health`, { signal: AbortSignal.timeout(2_000) }).then(
          (response) => response.ok,
          () => false,
        ));
      if (ok) return;
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  throw new Error(`not ready after ${timeoutMs} ms`);
}
