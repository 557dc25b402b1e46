import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { projectScanResponseSchema, type ProjectScanResponse } from '../common/projects';
import { startFixtureSite, type FixtureSite } from '../tests/fixtures/sites';
import { clusterDir, startEmbeddedPostgres, type RunningPostgres } from './db/embedded';
import { startServer } from './server';
import { startTestServer } from './testing/test-server';
import { callApi, signUp } from './testing/http';

// The database dies under a running server (kill -9 of the embedded postmaster; an external server stopped):
// the server answers 503 with the reason meanwhile, gets the database back, and carries on where it was.

const ENV = { VIBEEVAL_SCAN_RENDER: 'false', VIBEEVAL_SCAN_RATE: '0', VIBEEVAL_UNSUBSCRIBED_TIER: 'enterprise' };
const RECOVERY_BOUND_MS = 30_000;

let site: FixtureSite;
// A slow site (0.7 s a page): its scan is still running when the database dies.
let slowSite: http.Server;
let slowUrl: string;
const rejections: unknown[] = [];
const onRejection = (reason: unknown) => rejections.push(reason);
beforeAll(async () => {
  site = await startFixtureSite('vulnerable');
  slowSite = http.createServer((req, res) => {
    const n = Number(/\/p\/(\d+)/.exec(req.url ?? '')?.[1] ?? 0);
    setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>Page ${n}</title><a href="/p/${n + 1}">next</a>`), 700);
  });
  await new Promise<void>((done) => slowSite.listen(0, '127.0.0.1', done));
  slowUrl = `http://127.0.0.1:${(slowSite.address() as AddressInfo).port}/`;
  process.on('unhandledRejection', onRejection);
});
afterAll(async () => {
  process.off('unhandledRejection', onRejection);
  await site?.close();
  await new Promise((done) => slowSite?.close(done));
});
beforeEach(() => {
  rejections.length = 0;
});
afterEach(() => {
  // Nothing may have been left unhandled: that is what ended the process before.
  expect(rejections.map((reason) => (reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)))).toEqual([]);
});

async function client(origin: string) {
  const { token } = await signUp(origin, 'db-loss');
  const call = async (method: string, path: string, body?: unknown) => {
    const answer = await callApi(origin, method, path, { token, body });
    return { status: answer.status, body: answer.json as Record<string, unknown> & { detail?: string } };
  };
  return { token, call };
}

type Call = Awaited<ReturnType<typeof client>>['call'];

async function health(origin: string) {
  const response = await fetch(`${origin}/health`);
  return { status: response.status, body: (await response.json()) as { status: string; detail?: string; database: { state: string } } };
}

async function until<T>(what: string, probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs = RECOVERY_BOUND_MS): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  for (;;) {
    const value = await probe().catch((error: Error) => error as unknown as T);
    if (done(value)) return { value, ms: Date.now() - started };
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms; last ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const scanView = async (call: Call, projectId: string) => projectScanResponseSchema.parse((await call('GET', `/project/${projectId}/scan`)).body);

async function scanToCompletion(call: Call, projectId: string, start = true): Promise<ProjectScanResponse> {
  if (start) expect((await call('PATCH', `/project_test/${projectId}`)).status).toBe(200);
  const { value } = await until(
    'the scan finishes',
    () => scanView(call, projectId),
    (view) => view.scan?.state === 'completed' || view.scan?.state === 'failed',
    90_000,
  );
  return value;
}

/** Reads the server's live stream until a message of `type` arrives: proof that LISTEN/NOTIFY works again. */
async function liveMessage(origin: string, call: Call, type: string, trigger: () => Promise<void>) {
  const { body } = await call('POST', '/live/ticket');
  const abort = new AbortController();
  const response = await fetch(`${origin}/live?ticket=${encodeURIComponent(String(body.ticket))}`, { signal: abort.signal });
  const reader = response.body!.getReader();
  const timer = setTimeout(() => abort.abort(), 60_000);
  try {
    await trigger();
    let text = '';
    for (;;) {
      const { value, done } = (await reader.read()) as { value?: Uint8Array; done: boolean };
      if (done) return false;
      text += new TextDecoder().decode(value);
      if (text.includes(`"type":"${type}"`)) return true;
    }
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
}

describe('a dying embedded database', () => {
  it('answers 503 with the reason, restarts PostgreSQL, and carries on with its data, queues and live updates', async () => {
    const server = await startTestServer(ENV, { embedded: true });
    let release = () => undefined as void;
    try {
      const { call } = await client(server.origin);
      const before = await call('POST', '/project', { url: site.url, num_pages: 3 });
      expect(before.status).toBe(201);
      const inFlight = String((await call('POST', '/project', { url: slowUrl, num_pages: 6 })).body.id);
      expect((await call('PATCH', `/project_test/${inFlight}`)).status).toBe(200);
      await until(
        'a scan is running',
        () => scanView(call, inFlight),
        (view) => view.scan?.state === 'running' && (view.scan.progress?.pagesDone ?? 0) >= 1,
      );

      const dir = await clusterDir(join(server.dataDir, 'pg'));
      const postmaster = Number((await readFile(join(dir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
      // Its children are paused first: they keep the dead postmaster's shared memory, so PostgreSQL refuses to
      // start again (as it would while real leftover backends finish) and the 503s can be seen for a while.
      const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(postmaster)], { encoding: 'utf8' })
        .split('\n')
        .filter(Boolean)
        .map(Number);
      expect(children.length).toBeGreaterThan(0);
      for (const pid of children) process.kill(pid, 'SIGSTOP');
      release = () => children.forEach((pid) => process.kill(pid, 'SIGCONT'));
      process.kill(postmaster, 'SIGKILL');

      const down = await until(
        '/health says the database is down',
        () => health(server.origin),
        (h) => h.status === 503 && /restarted/.test(h.body.detail ?? ''),
      );
      expect(down.value.body).toMatchObject({ status: 'degraded', database: { state: 'down' } });
      expect(down.value.body.detail).toMatch(/embedded database stopped unexpectedly and is being restarted/);
      const list = await call('GET', '/projects');
      expect(list.status).toBe(503);
      expect(list.body.detail).toMatch(/being restarted/);
      expect((await call('POST', '/project', { url: site.url })).status).toBe(503);
      // What needs no database still answers.
      expect((await fetch(`${server.origin}/app-config`)).status).toBe(200);
      // While it cannot start yet, the detail counts the attempts.
      await until(
        'the detail counts the attempts',
        () => health(server.origin),
        (h) => /\(attempt [1-9]\d*\)/.test(h.body.detail ?? ''),
      );

      // Resumed, the leftover processes notice that their postmaster is gone and exit.
      release();
      const up = await until(
        '/health is 200 again',
        () => health(server.origin),
        (h) => h.status === 200,
      );
      console.log(`embedded database back ${up.ms} ms after the old backends were released`);

      const after = await call('GET', '/projects');
      expect(after.status).toBe(200);
      expect(JSON.stringify(after.body)).toContain(String(before.body.id));
      const created = await call('POST', '/project', { url: site.url, num_pages: 3 });
      expect(created.status).toBe(201);
      let view: ProjectScanResponse | undefined;
      const heard = await liveMessage(server.origin, call, 'scan.state', async () => {
        view = await scanToCompletion(call, String(created.body.id));
      });
      expect(view?.scan?.state).toBe('completed');
      expect(heard).toBe(true);
      // The scan that was running when the database died runs again and completes.
      const resumed = await scanToCompletion(call, inFlight, false);
      expect(resumed.scan?.state).toBe('completed');
      expect(resumed.result?.pages).toHaveLength(6);
    } finally {
      try {
        release();
      } catch {
        // Already gone.
      }
      await server.stop();
    }
  }, 150_000);
});

describe('stopping while the embedded database is away', () => {
  it('stops within a bounded time, a scan in flight left for the next start, nothing unhandled', async () => {
    const server = await startTestServer(ENV, { embedded: true });
    let children: number[] = [];
    try {
      const { call } = await client(server.origin);
      const project = String((await call('POST', '/project', { url: slowUrl, num_pages: 6 })).body.id);
      expect((await call('PATCH', `/project_test/${project}`)).status).toBe(200);
      await until(
        'a scan is running',
        () => scanView(call, project),
        (view) => view.scan?.state === 'running' && (view.scan.progress?.pagesDone ?? 0) >= 1,
      );
      const dir = await clusterDir(join(server.dataDir, 'pg'));
      const postmaster = Number((await readFile(join(dir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
      children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(postmaster)], { encoding: 'utf8' })
        .split('\n')
        .filter(Boolean)
        .map(Number);
      for (const pid of children) process.kill(pid, 'SIGSTOP');
      process.kill(postmaster, 'SIGKILL');
      await until(
        '/health says the database is down',
        () => health(server.origin),
        (h) => h.status === 503 && /restarted/.test(h.body.detail ?? ''),
      );
      // The scan ends (its site is slow, not gone) while the database is still away.
      await new Promise((r) => setTimeout(r, 6_000));
    } finally {
      for (const pid of children) process.kill(pid, 'SIGCONT');
      const started = Date.now();
      await server.stop();
      expect(Date.now() - started).toBeLessThan(20_000);
    }
  }, 120_000);
});

const bin = resolve(__dirname, '..', 'bin', 'vibeeval.cjs');

/** `vibeeval worker` as users run it; its output is kept for the assertions. */
function startWorker(env: Record<string, string>) {
  const child = spawn(process.execPath, [bin, 'worker'], { env: { PATH: process.env.PATH, LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  return { child, output: () => output };
}

const stopChild = (child: ChildProcess) =>
  new Promise<void>((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    child.once('exit', () => done());
    child.kill('SIGTERM');
  });

describe('a lost external database (DATABASE_URL)', () => {
  let root: string;
  let external: RunningPostgres | undefined;
  beforeAll(async () => {
    if (!existsSync(resolve(__dirname, '..', 'out', 'main', 'cli.js'))) throw new Error('out/ is not built: run `npm run build` first');
    root = await mkdtemp(join(tmpdir(), 'vibeeval-external-'));
  });
  afterAll(async () => {
    await external?.stop();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('the server and `vibeeval worker` wait for it, reconnect, and run the next scan', async () => {
    // The "external" server: the same PostgreSQL binaries, started apart from vibeeval.
    const pg = { dir: join(root, 'external-pg'), password: 'external-password-0123456789', log: () => undefined };
    external = await startEmbeddedPostgres(pg);
    const { url, port } = external;
    // This server only queues scans: the worker runs them.
    const server = await startServer({
      PATH: process.env.PATH,
      LOG_LEVEL: 'warn',
      PORT: '0',
      VIBEEVAL_DATA_DIR: join(root, 'server'),
      DATABASE_URL: url,
      VIBEEVAL_SCAN_CONCURRENCY: '0',
      ...ENV,
    });
    const worker = startWorker({ DATABASE_URL: url, VIBEEVAL_DATA_DIR: join(root, 'worker'), ...ENV });
    try {
      await until(
        'the worker starts',
        async () => worker.output(),
        (out) => out.includes('vibeeval worker is running'),
        60_000,
      );
      const { call } = await client(server.origin);
      const before = await call('POST', '/project', { url: site.url, num_pages: 3 });
      expect(before.status).toBe(201);

      await external.stop();
      const down = await until(
        '/health says the database is down',
        () => health(server.origin),
        (h) => h.status === 503 && /DATABASE_URL/.test(h.body.detail ?? ''),
      );
      expect(down.value.body.detail).toMatch(/cannot be reached; reconnecting/);
      const list = await call('GET', '/projects');
      expect(list.status).toBe(503);
      expect(list.body.detail).toMatch(/DATABASE_URL/);
      // Both processes keep running while the database is away.
      await new Promise((r) => setTimeout(r, 3_000));
      expect(worker.child.exitCode).toBeNull();

      external = await startEmbeddedPostgres({ ...pg, port });
      const up = await until(
        '/health is 200 again',
        () => health(server.origin),
        (h) => h.status === 200,
      );
      console.log(`external database reconnected ${up.ms} ms after it was started again`);
      const after = await call('GET', '/projects');
      expect(after.status).toBe(200);
      expect(JSON.stringify(after.body)).toContain(String(before.body.id));

      const created = await call('POST', '/project', { url: site.url, num_pages: 3 });
      expect(created.status).toBe(201);
      const view = await scanToCompletion(call, String(created.body.id));
      expect(view.scan?.state).toBe('completed');
      expect(worker.child.exitCode).toBeNull();
      expect(worker.output()).not.toMatch(/unhandled promise rejection/i);
    } finally {
      await stopChild(worker.child);
      await server.close();
    }
  }, 180_000);
});
