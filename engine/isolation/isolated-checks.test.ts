import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanResultSchema } from '../../common/scan';
import { CHECKS } from '../checks/index';
import { scan } from '../scan';
import { alwaysFinds, catastrophic, catastrophicPlanner, memoryHog } from './__fixtures__/hostile-checks';
import { CheckIsolation } from './isolated-checks';

const LOCAL = { allowPrivate: true };
const HOSTILE = join(__dirname, '__fixtures__', 'hostile-checks.ts');

let server: http.Server;
let url: string;
beforeAll(async () => {
  // A plain page without security headers: the registry's header checks have findings to report.
  server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>t</title><p>hello</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** Watches this thread's event loop: the longest gap between ticks of a 20 ms interval. */
function loopWatch() {
  let last = performance.now();
  let maxGap = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    maxGap = Math.max(maxGap, now - last);
    last = now;
  }, 20);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(maxGap, performance.now() - last);
    },
  };
}

/**
 * The same watch in a bare Node process running meanwhile: how long a busy machine alone keeps a loop from ticking.
 * A thread that runs check code stays blocked for as long as the check runs (here: forever); one the machine only
 * starves is late by about as much as the bare process.
 */
function bareLoopWatch() {
  const code = `let last = performance.now(), max = 0;
const t = setInterval(() => { const now = performance.now(); max = Math.max(max, now - last); last = now; }, 20);
process.stdin.on('data', () => { clearInterval(t); process.stdout.write(String(Math.max(max, performance.now() - last))); process.exit(0); });
process.stdout.write('ready\\n');`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const ready = new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  return {
    ready,
    async stop(): Promise<number> {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.stdin.end('stop');
      await exited;
      return Number(out.replace('ready\n', ''));
    },
  };
}

describe('checks run in a worker thread within a time budget', () => {
  it('skips a catastrophic check, keeps the other findings, and never blocks the calling thread', async () => {
    const bare = bareLoopWatch();
    await bare.ready;
    const watch = loopWatch();
    const result = await scan(
      url,
      { maxPages: 1, render: false, rateLimit: 0 },
      { addressPolicy: LOCAL, checks: [...CHECKS, catastrophic, alwaysFinds], checksModule: HOSTILE, checkBudget: { perCheckMs: 500, perScanMs: 30_000 } },
    );
    const maxGap = watch.stop();
    const bareGap = await bare.stop();
    expect(scanResultSchema.parse(result)).toBeTruthy();
    expect(result.coverage?.checksSkipped).toEqual([{ checkId: 'test-catastrophic', reason: 'stopped after 0.5 s of CPU time' }]);
    expect(result.warnings).toContain('test-catastrophic: skipped, stopped after 0.5 s of CPU time');
    // The check after the stopped one ran in a fresh worker, and the registry's checks reported as usual.
    expect(result.findings.map((finding) => finding.checkId)).toEqual(expect.arrayContaining(['test-always-finds', 'csp-missing']));
    expect(result.passed.map((check) => check.checkId)).not.toContain('test-catastrophic');
    expect(maxGap).toBeLessThan(bareGap + 200);
  });

  it('stops a catastrophic probe planner, and the check is not run later', async () => {
    const result = await scan(
      url,
      { maxPages: 1, render: false, rateLimit: 0 },
      { addressPolicy: LOCAL, checks: [catastrophicPlanner, alwaysFinds], checksModule: HOSTILE, checkBudget: { perCheckMs: 300 } },
    );
    expect(result.coverage?.checksSkipped).toEqual([{ checkId: 'test-catastrophic-planner', reason: 'stopped after 0.3 s of CPU time' }]);
    expect(result.findings.map((finding) => finding.checkId)).toEqual(['test-always-finds']);
  });

  it('skips a check whose worker runs out of memory', async () => {
    const lost: string[] = [];
    const result = await scan(
      url,
      { maxPages: 1, render: false, rateLimit: 0 },
      { addressPolicy: LOCAL, checks: [memoryHog, alwaysFinds], checksModule: HOSTILE, checkBudget: { heapMb: 32 }, onCheckWorkerLost: ({ checkId }) => lost.push(checkId) },
    );
    expect(lost).toEqual(['test-memory-hog']);
    expect(result.coverage?.checksSkipped.map((skipped) => skipped.checkId)).toEqual(['test-memory-hog']);
    expect(result.coverage?.checksSkipped[0]?.reason).toMatch(/^its worker stopped: .*memory/);
    expect(result.findings.map((finding) => finding.checkId)).toEqual(['test-always-finds']);
  });

  it('skips the remaining checks once the scan budget is spent', async () => {
    const result = await scan(
      url,
      { maxPages: 1, render: false, rateLimit: 0 },
      { addressPolicy: LOCAL, checks: [catastrophic, alwaysFinds], checksModule: HOSTILE, checkBudget: { perCheckMs: 5_000, perScanMs: 400 } },
    );
    expect(result.coverage?.checksSkipped).toEqual([
      { checkId: 'test-catastrophic', reason: "stopped: the scan's checks used their 0.4 s of CPU time" },
      { checkId: 'test-always-finds', reason: "not run: the scan's checks used their 0.4 s of CPU time" },
    ]);
    expect(result.findings).toEqual([]);
  });

  it('refuses a check object that is not in the registry when no module is given', () => {
    expect(() => new CheckIsolation({ checks: [alwaysFinds] })).toThrow("The check 'test-always-finds' is not in the registry");
  });
});
