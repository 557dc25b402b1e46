import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The built server as users run it (`vibeeval serve`): signals stop it cleanly, a crash is recovered.
const bin = resolve(__dirname, '..', 'bin', 'vibeeval.cjs');

const freePort = () =>
  new Promise<number>((done) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const address = s.address();
      s.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });

async function serve(dataDir: string, env: Record<string, string> = {}) {
  const port = await freePort();
  const child = spawn(process.execPath, [bin, 'serve'], {
    env: { PATH: process.env.PATH, PORT: String(port), VIBEEVAL_DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}): ${output}`);
    if (Date.now() > deadline) throw new Error(`server did not answer /health: ${output}`);
    const ok = await fetch(`${origin}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return { child, origin, output: () => output };
}

const exit = (child: ChildProcess) => new Promise<number | null>((done) => (child.exitCode !== null ? done(child.exitCode) : child.once('exit', (code) => done(code))));

describe('vibeeval serve', () => {
  let dataDir: string;
  beforeAll(async () => {
    if (!existsSync(resolve(__dirname, '..', 'out', 'main', 'cli.js'))) throw new Error('out/ is not built: run `npm run build` first');
    dataDir = await mkdtemp(join(tmpdir(), 'vibeeval-life-'));
  });
  afterAll(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('finishes a request in flight on SIGTERM, stops PostgreSQL and exits 0', async () => {
    const { child, origin } = await serve(dataDir);
    const health = (await (await fetch(`${origin}/health`)).json()) as { database: { kind: string; state: string } };
    expect(health.database).toEqual({ kind: 'embedded', state: 'up' });

    // A sign-up hashes a password (tens of ms): the signal arrives while it runs.
    const inFlight = fetch(`${origin}/auth/v1/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'inflight@example.test', password: 'secret123' }),
    });
    await new Promise((r) => setTimeout(r, 5));
    child.kill('SIGTERM');
    expect((await inFlight).status).toBe(200);
    expect(await exit(child)).toBe(0);
    // PostgreSQL removes its pid file only on a clean shutdown.
    expect(existsSync(join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
  });

  it('starts again after being killed, with its data', async () => {
    const first = await serve(dataDir);
    first.child.kill('SIGKILL');
    await exit(first.child);
    const pid = Number((await readFile(join(dataDir, 'pg', 'postmaster.pid'), 'utf8')).split('\n')[0]);

    const second = await serve(dataDir);
    // The account made before the crash still signs in.
    const signin = await fetch(`${second.origin}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'inflight@example.test', password: 'secret123' }),
    });
    expect(signin.status).toBe(200);
    expect(() => process.kill(pid, 0)).toThrow();
    second.child.kill('SIGINT');
    expect(await exit(second.child)).toBe(0);
  });

  it('refuses a bad configuration with a message naming the variable', async () => {
    const child = spawn(process.execPath, [bin, 'serve'], { env: { PATH: process.env.PATH, PORT: 'abc', VIBEEVAL_DATA_DIR: dataDir }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    expect(await exit(child)).toBe(1);
    expect(stderr).toContain('PORT: must be a number');
  });
});
