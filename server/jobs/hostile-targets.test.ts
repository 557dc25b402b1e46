import { spawn } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGzip } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectScanResponseSchema, type ProjectScanResponse } from '../../common/projects';
import { startSmtpCapture, startTestServer } from '../testing/test-server';
import { callApi, signUp as signUpUser } from '../testing/http';

// Sites built to hurt a scanner, scanned through the API as a user would (and anonymously through
// POST /v2/vibe-scanner), while /health is asked every 100 ms: the server keeps answering within a second of a bare
// server asked at the same moment (a busy machine delays both alike; a check on the server's thread would hold only
// /health, for seconds to minutes), and every scan ends, completed (a check over its budget skipped) or failed with a
// reason.

const HEALTH_LIMIT_MS = 1_000;
/** How long all the scans together may take; the budgets below are set small to keep it so. */
const SCANS_WITHIN_MS = 120_000;

/** A gzip body that inflates to 256 MB of zeros (about 250 kB on the wire). */
async function gzipBomb(): Promise<Buffer> {
  const gzip = createGzip({ level: 9 });
  const chunks: Buffer[] = [];
  gzip.on('data', (chunk: Buffer) => chunks.push(chunk));
  const zeros = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < 256; i++) if (!gzip.write(zeros)) await new Promise((resolve) => gzip.once('drain', resolve));
  await new Promise<void>((resolve) => gzip.end(resolve));
  return Buffer.concat(chunks);
}

/** Streams `total` bytes of `x` with backpressure, stopping when the client goes away. */
function hugeBody(res: http.ServerResponse, total: number) {
  const chunk = Buffer.alloc(64 * 1024, 'x');
  let sent = 0;
  const pump = () => {
    while (sent < total && !res.destroyed) {
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    res.end();
  };
  pump();
}

/** One byte every 300 ms, for as long as the client listens (at most ten minutes). */
function trickle(res: http.ServerResponse) {
  res.writeHead(200, { 'content-type': 'text/html' });
  let sent = 0;
  const timer = setInterval(() => {
    if (res.destroyed || sent++ > 2_000) {
      clearInterval(timer);
      res.end();
    } else res.write('a');
  }, 300);
  res.on('close', () => clearInterval(timer));
}

let hostile: http.Server;
let origin: string;
let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
let server: Awaited<ReturnType<typeof startTestServer>>;

beforeAll(async () => {
  const bomb = await gzipBomb();
  hostile = http.createServer((req, res) => {
    const path = req.url ?? '/';
    const html = { 'content-type': 'text/html; charset=utf-8' };
    if (path === '/redos-word') return void res.writeHead(200, html).end(`<!doctype html><p>${'a'.repeat(100_000)}</p>`);
    if (path === '/redos-dots') return void res.writeHead(200, html).end(`<!doctype html><p>${'a.'.repeat(50_000)}</p>`);
    if (path === '/huge') return void (res.writeHead(200, html), hugeBody(res, 512 * 1024 * 1024));
    if (path === '/trickle') return void trickle(res);
    if (path === '/gzip-bomb') return void res.writeHead(200, { ...html, 'content-encoding': 'gzip' }).end(bomb);
    const loop = /^\/loop\/(\d+)$/.exec(path);
    if (loop) return void res.writeHead(302, { location: `/loop/${Number(loop[1]) + 1}` }).end();
    res.writeHead(404, html).end('<!doctype html><title>Not found</title>');
  });
  await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}`;
  smtp = await startSmtpCapture();
  server = await startTestServer({
    SMTP_URL: smtp.url,
    VIBEEVAL_SCAN_RENDER: 'false',
    VIBEEVAL_SCAN_RATE: '0',
    VIBEEVAL_SCAN_CONCURRENCY: '3',
    // Small budgets keep the test short; the defaults are 10 s a check and a minute a scan.
    VIBEEVAL_CHECK_BUDGET_MS: '1500',
    VIBEEVAL_SCAN_CHECKS_BUDGET_MS: '8000',
    PUBLIC_SCAN_PAGES: '2',
    PUBLIC_SCAN_MAX_PER_IP: '8',
  });
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await smtp?.close();
  hostile?.closeAllConnections();
  await new Promise<void>((resolve) => (hostile ? hostile.close(() => resolve()) : resolve()));
});

/**
 * A bare HTTP server in a process of its own: the reference /health is compared with. On a busy machine every
 * process waits for a core now and then; only a server whose own thread is held up answers much later than it.
 */
async function startReference(): Promise<{ url: string; stop(): void }> {
  const child = spawn(process.execPath, ['-e', "require('http').createServer((q, s) => s.end('ok')).listen(0, '127.0.0.1', function () { console.log(this.address().port) })"], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = (await once(child.stdout, 'data')) as [Buffer];
  return { url: `http://127.0.0.1:${Number(line.toString().trim())}/`, stop: () => child.kill() };
}

async function timedGet(url: string): Promise<{ ms: number; failure?: string }> {
  const started = performance.now();
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    await response.arrayBuffer();
    return { ms: performance.now() - started, failure: response.status === 200 ? undefined : `status ${response.status}` };
  } catch (error) {
    return { ms: performance.now() - started, failure: (error as Error).message };
  }
}

/**
 * Asks /health and the reference at the same moment, every 100 ms until stopped; keeps the slowest health answer,
 * the most it took longer than the reference's answer asked beside it, and any that was not 200.
 */
function healthProbe(base: string, reference: string) {
  const seen = { count: 0, slowestMs: 0, slowestBeyondReferenceMs: 0, failures: [] as string[] };
  let running = true;
  const loop = (async () => {
    while (running) {
      const [health, beside] = await Promise.all([timedGet(`${base}/health`), timedGet(reference)]);
      if (health.failure) seen.failures.push(health.failure);
      seen.count++;
      seen.slowestMs = Math.max(seen.slowestMs, health.ms);
      seen.slowestBeyondReferenceMs = Math.max(seen.slowestBeyondReferenceMs, health.ms - beside.ms);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, 100 - health.ms)));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return seen;
    },
  };
}

async function signUp(base: string) {
  const { token } = await signUpUser(base, 'hostile');
  return async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const answer = await callApi(base, method, path, { token, body });
    if (answer.status < 200 || answer.status > 299) throw new Error(`${method} ${path} answered ${answer.status}: ${answer.text}`);
    return answer.json;
  };
}

type Call = Awaited<ReturnType<typeof signUp>>;

/** Starts a scan of `url` as a user would: a project, then Run Test. */
async function startScan(call: Call, url: string): Promise<string> {
  const project = (await call('POST', '/project', { url, num_pages: 3 })) as { id: string };
  await call('PATCH', `/project_test/${project.id}`);
  return project.id;
}

async function scanEnd(call: Call, projectId: string, deadline: number): Promise<ProjectScanResponse> {
  for (;;) {
    const view = projectScanResponseSchema.parse(await call('GET', `/project/${projectId}/scan`));
    if (view.scan?.state === 'completed' || view.scan?.state === 'failed') return view;
    if (Date.now() > deadline) return view;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('hostile targets', () => {
  it(
    'keeps /health answering within a second while scans of hostile sites run, and every scan ends',
    async () => {
      const reference = await startReference();
      const probe = healthProbe(server.origin, reference.url);
      const deadline = Date.now() + SCANS_WITHIN_MS;
      try {
        const call = await signUp(server.origin);
        const targets = ['/redos-word', '/redos-dots', '/huge', '/gzip-bomb', '/loop/0', '/trickle'];
        const projects = await Promise.all(targets.map(async (path) => ({ path, id: await startScan(call, `${origin}${path}`) })));
        const email = `visitor${Date.now()}@example.com`;
        const accepted = await fetch(`${server.origin}/v2/vibe-scanner`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ url: `${origin}/redos-word`, email }),
        });
        expect(accepted.status).toBe(202);

        const ends = await Promise.all(projects.map(async ({ path, id }) => ({ path, view: await scanEnd(call, id, deadline) })));
        const mail = await smtp.next(email, Math.max(1_000, deadline - Date.now()));
        const health = await probe.stop();

        expect(health.failures).toEqual([]);
        expect(health.count).toBeGreaterThan(50);
        console.log(
          `/health: ${health.count} answers, slowest ${Math.round(health.slowestMs)} ms, at most ${Math.round(health.slowestBeyondReferenceMs)} ms slower than a bare server beside it`,
        );
        expect(health.slowestBeyondReferenceMs).toBeLessThan(HEALTH_LIMIT_MS);
        const states = Object.fromEntries(ends.map(({ path, view }) => [path, view.scan?.state]));
        expect(states).toEqual({
          '/redos-word': 'completed',
          '/redos-dots': 'completed',
          '/huge': 'completed',
          '/gzip-bomb': 'completed',
          '/loop/0': 'failed',
          // Ends only once each request's total time is bounded, not only its idle time.
          '/trickle': expect.stringMatching(/^(completed|failed)$/) as string,
        });
        for (const { view } of ends) {
          if (view.scan?.state === 'failed') expect(view.scan.error).toMatch(/^Could not reach .*(redirects|did not answer in time|took longer than)/);
          // A check stopped over its budget is in the result's coverage and its warnings, never silently missing.
          for (const skipped of view.result?.coverage?.checksSkipped ?? []) expect(view.result?.warnings).toContain(`${skipped.checkId}: skipped, ${skipped.reason}`);
        }
        expect(mail.subject).toMatch(/^Your vibeeval security report for 127\.0\.0\.1:\d+/);
      } finally {
        await probe.stop();
        reference.stop();
      }
    },
    SCANS_WITHIN_MS + 60_000,
  );
});
