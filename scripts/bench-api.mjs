// npm run bench:api: GET /projects for a user with 50 projects, 50 connections on loopback (autocannon), next to a
// bare Fastify route serving the same JSON in the same run; prints the ratio (absolute figures vary 2x by the day).
// Arguments: seconds per round (5), rounds (3).
// Runs the built server (`npm run build` first) on a fresh data dir with its embedded PostgreSQL.
import autocannon from 'autocannon';
import { fork, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
if (!existsSync(join(root, 'out/main/cli.js'))) {
  console.error('bench:api needs the built server: run `npm run build` first.');
  process.exit(2);
}
const GOAL_RATIO = 0.5;
const GOAL_P99_MS = 50;
const duration = Number(process.argv[2] ?? 5);
const ROUNDS = Number(process.argv[3] ?? 3);

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

  // The reference: a bare Fastify route serving the same bytes, in its own process, measured in the same run.
  const body = await (await fetch(`${origin}/projects`, { headers })).text();
  const refPort = await freePort();
  const reference = fork(join(root, 'scripts/bench/bare-fastify.mjs'), [], { env: { ...process.env, PORT: String(refPort), BENCH_BODY: body }, stdio: 'inherit' });
  await new Promise((resolve, reject) => {
    reference.once('message', resolve);
    reference.once('exit', (code) => reject(new Error(`the reference server exited (${code})`)));
  });
  const measure = async (url, withHeaders) => autocannon({ url, connections: 50, duration, headers: withHeaders ? headers : {} });
  const rounds = [];
  try {
    // Warm both up, then alternate so that a slow moment of this shared machine hits both sides alike.
    await autocannon({ url: `${origin}/projects`, connections: 50, duration: 2, headers });
    await autocannon({ url: `http://127.0.0.1:${refPort}/projects`, connections: 50, duration: 2 });
    for (let i = 0; i < ROUNDS; i++) {
      const ours = await measure(`${origin}/projects`, true);
      const bare = await measure(`http://127.0.0.1:${refPort}/projects`, false);
      rounds.push({ ours, bare });
    }
  } finally {
    reference.kill('SIGTERM');
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const ratio = median(rounds.map(({ ours, bare }) => ours.requests.average / bare.requests.average));
  const rps = Math.round(median(rounds.map(({ ours }) => ours.requests.average)));
  const bareRps = Math.round(median(rounds.map(({ bare }) => bare.requests.average)));
  const p99 = median(rounds.map(({ ours }) => ours.latency.p99));
  const bareP99 = median(rounds.map(({ bare }) => bare.latency.p99));
  const failures = rounds.reduce((sum, { ours }) => sum + ours.non2xx + ours.errors, 0);
  const ok = ratio >= GOAL_RATIO && p99 < GOAL_P99_MS && failures === 0;
  console.log(
    `GET /projects (50 projects, ${(body.length / 1024).toFixed(1)} KB), 50 connections, ${ROUNDS} × ${duration} s each side (medians):\n` +
      `  vibeeval:     ${rps} requests/s, p99 ${p99} ms, ${failures} non-2xx or errors\n` +
      `  bare Fastify: ${bareRps} requests/s, p99 ${bareP99} ms (same JSON, same machine, same run)\n` +
      `  ratio ${ratio.toFixed(2)} (goal ≥ ${GOAL_RATIO}), p99 goal < ${GOAL_P99_MS} ms: ${ok ? 'met' : 'NOT met'}`,
  );
  process.exitCode = ok ? 0 : 1;
} finally {
  await stop();
}
