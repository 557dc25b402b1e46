// npm run bench:api: GET /projects for a user with 50 projects (session token), and GET /v1/scans with an API key
// (the public API: key check, daily usage count, the scans list) for the same user on the Enterprise API plan, each
// at 50 connections on loopback (autocannon), next to a bare Fastify route serving the same JSON in the same run;
// prints the ratios (absolute figures vary 2x by the day).
// Arguments: seconds per round (5), rounds (3).
// Runs the built server (`npm run build` first) on a fresh data dir with its embedded PostgreSQL, its user on the
// Enterprise tier (the Basic tier's plan limits would refuse the 50 projects).
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
/** The public API's own goal: requests per second through API-key auth and the daily count. */
const GOAL_V1_RPS = 4000;
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
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    VIBEEVAL_DATA_DIR: dataDir,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    VIBEEVAL_SCAN_CONCURRENCY: '0',
    VIBEEVAL_UNSUBSCRIBED_TIER: 'enterprise',
    VIBEEVAL_API_PLAN: 'enterprise',
  },
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
  // Sign-up answers without a session (it says nothing about whether the address had an account): then sign in.
  const account = JSON.stringify({ email: `bench${Date.now()}@example.com`, password: 'secret123' });
  const auth = { 'content-type': 'application/json', apikey: 'local' };
  const signup = await fetch(`${origin}/auth/v1/signup`, { method: 'POST', headers: auth, body: account });
  if (!signup.ok) throw new Error(`sign-up answered ${signup.status}`);
  const signin = await fetch(`${origin}/auth/v1/token?grant_type=password`, { method: 'POST', headers: auth, body: account });
  const { access_token: token } = await signin.json();
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  for (let i = 0; i < 50; i++) {
    const created = await fetch(`${origin}/project`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        url: `https://shop-${i}.example.com/`,
        instruction_text: `Client site ${i}`,
        secret_instruction: i % 2 ? `user${i}@example.com / pass${i}` : null,
        num_pages: 1 + (i % 10),
      }),
    });
    if (created.status !== 201) throw new Error(`creating a project answered ${created.status}`);
  }
  const check = await (await fetch(`${origin}/projects`, { headers })).json();
  if (check.length !== 50) throw new Error(`expected 50 projects, got ${check.length}`);

  // 20 scans through the public API (queued: no scan runs in this server), listed by GET /v1/scans.
  const created = await fetch(`${origin}/api_keys`, { method: 'POST', headers, body: JSON.stringify({ name: 'bench' }) });
  const { key } = await created.json();
  const keyHeaders = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  for (let i = 0; i < 20; i++) {
    const scan = await fetch(`${origin}/v1/scans`, { method: 'POST', headers: keyHeaders, body: JSON.stringify({ url: `https://api-${i}.example.com/` }) });
    if (scan.status !== 202) throw new Error(`POST /v1/scans answered ${scan.status}: ${await scan.text()}`);
  }

  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  /** Our route against the bare reference serving the same bytes, in alternating rounds. */
  const compare = async (path, withHeaders, goal) => {
    const body = await (await fetch(`${origin}${path}`, { headers: withHeaders })).text();
    const refPort = await freePort();
    const reference = fork(join(root, 'scripts/bench/bare-fastify.mjs'), [], { env: { ...process.env, PORT: String(refPort), BENCH_BODY: body }, stdio: 'inherit' });
    await new Promise((resolve, reject) => {
      reference.once('message', resolve);
      reference.once('exit', (code) => reject(new Error(`the reference server exited (${code})`)));
    });
    const measure = async (url, h) => autocannon({ url, connections: 50, duration, headers: h });
    const rounds = [];
    try {
      // Warm both up, then alternate so that a slow moment of this shared machine hits both sides alike.
      await autocannon({ url: `${origin}${path}`, connections: 50, duration: 2, headers: withHeaders });
      await autocannon({ url: `http://127.0.0.1:${refPort}/projects`, connections: 50, duration: 2 });
      for (let i = 0; i < ROUNDS; i++) {
        const ours = await measure(`${origin}${path}`, withHeaders);
        const bare = await measure(`http://127.0.0.1:${refPort}/projects`, {});
        rounds.push({ ours, bare });
      }
    } finally {
      reference.kill('SIGTERM');
    }
    const ratio = median(rounds.map(({ ours, bare }) => ours.requests.average / bare.requests.average));
    const rps = Math.round(median(rounds.map(({ ours }) => ours.requests.average)));
    const bareRps = Math.round(median(rounds.map(({ bare }) => bare.requests.average)));
    const p99 = median(rounds.map(({ ours }) => ours.latency.p99));
    const bareP99 = median(rounds.map(({ bare }) => bare.latency.p99));
    const failures = rounds.reduce((sum, { ours }) => sum + ours.non2xx + ours.errors, 0);
    const ok = goal(ratio, rps) && p99 < GOAL_P99_MS && failures === 0;
    return { body, ratio, rps, bareRps, p99, bareP99, failures, ok };
  };

  const projects = await compare('/projects', headers, (ratio) => ratio >= GOAL_RATIO);
  console.log(
    `GET /projects (50 projects, ${(projects.body.length / 1024).toFixed(1)} KB), 50 connections, ${ROUNDS} × ${duration} s each side (medians):\n` +
      `  vibeeval:     ${projects.rps} requests/s, p99 ${projects.p99} ms, ${projects.failures} non-2xx or errors\n` +
      `  bare Fastify: ${projects.bareRps} requests/s, p99 ${projects.bareP99} ms (same JSON, same machine, same run)\n` +
      `  ratio ${projects.ratio.toFixed(2)} (goal ≥ ${GOAL_RATIO}), p99 goal < ${GOAL_P99_MS} ms: ${projects.ok ? 'met' : 'NOT met'}`,
  );
  const v1 = await compare('/v1/scans', { authorization: `Bearer ${key}` }, (_ratio, rps) => rps >= GOAL_V1_RPS);
  console.log(
    `GET /v1/scans with an API key (20 scans, ${(v1.body.length / 1024).toFixed(1)} KB, Enterprise plan), 50 connections, ${ROUNDS} × ${duration} s each side (medians):\n` +
      `  vibeeval:     ${v1.rps} requests/s, p99 ${v1.p99} ms, ${v1.failures} non-2xx or errors\n` +
      `  bare Fastify: ${v1.bareRps} requests/s, p99 ${v1.bareP99} ms (same JSON, same machine, same run)\n` +
      `  ratio ${v1.ratio.toFixed(2)}; goal ≥ ${GOAL_V1_RPS} requests/s and p99 < ${GOAL_P99_MS} ms: ${v1.ok ? 'met' : 'NOT met'}`,
  );
  process.exitCode = projects.ok && v1.ok ? 0 : 1;
} finally {
  await stop();
}
