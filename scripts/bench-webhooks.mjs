// npm run bench:webhooks [N]: time from a scan's completion to its webhook delivery, on loopback.
// Runs the built server (`npm run build` first) as its own process on a fresh data dir with its embedded PostgreSQL,
// and N scans (default 30, at least 30) of a tiny local site, one after another, with one webhook at a loopback
// receiver that verifies every delivery's signature with the standardwebhooks library. Measured per scan: from the
// scan's completion (the finished_at its row gets in the completing transaction, sent in the scan.completed
// payload; PostgreSQL and this process read the same clock) to the receiver having the delivery. Reference, same
// receiver, same run: the round trip of a bare POST of the same size over loopback on a fresh connection (each
// delivery attempt opens one).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';

const root = new URL('..', import.meta.url).pathname;
if (!existsSync(join(root, 'out/main/cli.js'))) {
  console.error('bench:webhooks needs the built server: run `npm run build` first.');
  process.exit(2);
}
const N = Math.max(30, Number(process.argv[2] ?? 30) || 30);
const GOAL_MEDIAN_MS = 100;

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const fmt = (ms) => `${ms.toFixed(1)} ms`;
const listen = (server) => new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}`)));
const freePort = () =>
  new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

let secret = '';
let deliveryBytes = 0;
const arrivals = new Map();
const waiters = new Map();
const receiver = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const at = Date.now();
    res.writeHead(200).end('ok');
    if (req.url !== '/hook') return;
    const body = Buffer.concat(chunks).toString('utf8');
    const event = new Webhook(secret).verify(body, req.headers);
    if (event.type !== 'scan.completed') return;
    deliveryBytes = Buffer.byteLength(body);
    arrivals.set(event.data.scan_id, { at, finishedAt: event.data.finished_at });
    waiters.get(event.data.scan_id)?.();
  });
});
const receiverUrl = await listen(receiver);
const site = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><html lang="en"><title>Shop</title><h1>Shop</h1></html>'));
const siteUrl = `${await listen(site)}/`;

const port = await freePort();
const dataDir = mkdtempSync(join(tmpdir(), 'vibeeval-bench-webhooks-'));
const origin = `http://127.0.0.1:${port}`;
const server = spawn(process.execPath, [join(root, 'bin/vibeeval.cjs'), 'serve'], {
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    VIBEEVAL_DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    VIBEEVAL_SCAN_ALLOW_PRIVATE: 'true',
    VIBEEVAL_SCAN_RENDER: 'false',
    VIBEEVAL_SCAN_RATE: '0',
    VIBEEVAL_SCENARIO_CONCURRENCY: '0',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});

const api = async (method, path, token, body) => {
  const response = await fetch(`${origin}${path}`, {
    method,
    headers: { apikey: 'local', ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return response.json();
};

try {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${origin}/health`)).ok) break;
    } catch {
      // not up yet
    }
    if (i > 300) throw new Error('the server did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  // Sign-up answers without a session (it says nothing about whether the address had an account): then sign in.
  const account = { email: `bench-${Date.now()}@example.com`, password: 'secret123' };
  await api('POST', '/auth/v1/signup', null, account);
  const { access_token: token } = await api('POST', '/auth/v1/token?grant_type=password', null, account);
  ({ secret } = await api('POST', '/webhook', token, { url: `${receiverUrl}/hook` }));
  const project = await api('POST', '/project', token, { url: siteUrl, num_pages: 1 });

  const latencies = [];
  for (let i = 0; i < N; i++) {
    const { scan_id: scanId } = await api('PATCH', `/project_test/${project.id}`, token);
    if (!arrivals.has(scanId)) {
      await new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no delivery for scan ${scanId} in 60 s`)), 60_000);
        waiters.set(scanId, () => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    const arrival = arrivals.get(scanId);
    latencies.push(arrival.at - Date.parse(arrival.finishedAt));
  }

  const body = JSON.stringify({ pad: 'x'.repeat(Math.max(0, deliveryBytes - 10)) });
  const bare = [];
  for (let i = 0; i < N; i++) {
    const t0 = performance.now();
    const response = await fetch(`${receiverUrl}/bare`, { method: 'POST', body, headers: { 'content-type': 'application/json', connection: 'close' } });
    await response.text();
    bare.push(performance.now() - t0);
  }

  const median = percentile(latencies, 50);
  console.log(`bench:webhooks: ${N} scans of a local one-page site, one webhook at a loopback receiver (every signature verified, ${deliveryBytes}-byte deliveries)`);
  console.log(`  scan completed -> delivery received: median ${fmt(median)}, p95 ${fmt(percentile(latencies, 95))}, max ${fmt(Math.max(...latencies))}`);
  console.log(`  reference, bare POST round trip to the same receiver: median ${fmt(percentile(bare, 50))}, p95 ${fmt(percentile(bare, 95))}`);
  console.log(`  goal: median under ${GOAL_MEDIAN_MS} ms: ${median < GOAL_MEDIAN_MS ? 'met' : 'NOT met'}`);
  if (median >= GOAL_MEDIAN_MS) process.exitCode = 1;
} finally {
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  rmSync(dataDir, { recursive: true, force: true });
  receiver.closeAllConnections();
  receiver.close();
  site.close();
}
