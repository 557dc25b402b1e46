// npm run bench:api: GET /projects for a user with 50 projects, 50 connections for 10 s on loopback (autocannon).
// Runs the built server (`npm run build` first) on a fresh data dir with its embedded PostgreSQL.
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
if (!existsSync(join(root, 'out/main/cli.js'))) {
  console.error('bench:api needs the built server: run `npm run build` first.');
  process.exit(2);
}
const GOAL_RPS = 5_000;
const GOAL_P99_MS = 50;
const duration = Number(process.argv[2] ?? 10);

const freePort = () =>
  new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

const port = await freePort();
const dataDir = mkdtempSync(join(tmpdir(), 'vibeeval-bench-api-'));
const origin = `http://127.0.0.1:${port}`;
// BENCH_PROFILE=<dir> writes a CPU profile of the server there.
const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
const server = spawn(process.execPath, [...profile, join(root, 'bin/vibeeval.cjs'), 'serve'], {
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', VIBEEVAL_DATA_DIR: dataDir, LOG_LEVEL: process.env.LOG_LEVEL ?? 'info', VIBEEVAL_SCAN_CONCURRENCY: '0' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const stop = async () => {
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  rmSync(dataDir, { recursive: true, force: true });
};

try {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${origin}/health`)).ok) break;
    } catch {
      // not up yet
    }
    if (i > 200) throw new Error('the server did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const signup = await fetch(`${origin}/auth/v1/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', apikey: 'local' },
    body: JSON.stringify({ email: `bench${Date.now()}@example.com`, password: 'secret123' }),
  });
  const { access_token: token } = await signup.json();
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  for (let i = 0; i < 50; i++) {
    const created = await fetch(`${origin}/project`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: `https://shop-${i}.example.com/`, instruction_text: `Client site ${i}`, secret_instruction: i % 2 ? `user${i}@example.com / pass${i}` : null, num_pages: 1 + (i % 10) }),
    });
    if (created.status !== 201) throw new Error(`creating a project answered ${created.status}`);
  }
  const check = await (await fetch(`${origin}/projects`, { headers })).json();
  if (check.length !== 50) throw new Error(`expected 50 projects, got ${check.length}`);

  // Warm up, then measure.
  await autocannon({ url: `${origin}/projects`, connections: 50, duration: 2, headers });
  const result = await autocannon({ url: `${origin}/projects`, connections: 50, duration, headers });
  const rps = Math.round(result.requests.average);
  const p99 = result.latency.p99;
  const ok = rps >= GOAL_RPS && p99 < GOAL_P99_MS && result.non2xx === 0 && result.errors === 0;
  console.log(
    `GET /projects (50 projects, ${Math.round(result.throughput.average / 1024)} KB/s), 50 connections, ${duration} s: ` +
      `${rps} requests/s, latency p50 ${result.latency.p50} ms, p99 ${p99} ms, ${result.non2xx} non-2xx, ${result.errors} errors ` +
      `(goal ≥ ${GOAL_RPS} req/s, p99 < ${GOAL_P99_MS} ms): ${ok ? 'met' : 'NOT met'}`,
  );
  process.exitCode = ok ? 0 : 1;
} finally {
  await stop();
}
