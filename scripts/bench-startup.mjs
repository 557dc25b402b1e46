#!/usr/bin/env node
// Measures the time from starting `vibeeval serve` to the first 200 from /health, with the embedded
// database: first starts (fresh data dir) and later starts (same data dir), and prints the medians.
// Usage: node scripts/bench-startup.mjs [runs=5]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const runs = Number(process.argv[2] ?? 5);
const bin = new URL('../bin/vibeeval.cjs', import.meta.url).pathname;

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

async function startOnce(dataDir) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [bin, 'serve'], {
    env: { ...process.env, PORT: String(port), VIBEEVAL_DATA_DIR: dataDir, LOG_LEVEL: 'warn', DATABASE_URL: '' },
    stdio: 'ignore',
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
      try {
        const res = await fetch(`http://127.0.0.1:${port}/health`);
        if (res.status === 200) return performance.now() - started;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 10));
    }
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const first = [];
const later = [];
for (let i = 0; i < runs; i++) {
  const dir = mkdtempSync(join(tmpdir(), 'vibeeval-bench-'));
  try {
    first.push(await startOnce(dir));
    later.push(await startOnce(dir));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const fmt = (xs) => `median ${Math.round(median(xs))} ms (runs: ${xs.map((x) => Math.round(x)).join(', ')})`;
console.log(`first start (fresh data dir): ${fmt(first)}`);
console.log(`later start (same data dir):  ${fmt(later)}`);
