import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { projectScanResponseSchema, type ProjectScanResponse } from '../../common/projects';
import { startServer, type RunningServer } from '../server';
import { freshDatabase, type FreshDatabase } from '../testing/fresh-database';
import { callApi, signUp } from '../testing/http';

// A slow site: every page takes 1.5 s, so a 12-page scan is still running when the server stops.
let site: http.Server;
let siteUrl: string;
beforeAll(async () => {
  site = http.createServer((req, res) => {
    const n = Number(/\/p\/(\d+)/.exec(req.url ?? '')?.[1] ?? 0);
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<!doctype html><title>Page ${n}</title><a href="/p/${n + 1}">next</a><a href="/p/${n + 2}">skip</a>`);
    }, 1_500);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => site.close(() => resolve())));

const ENV = { PATH: process.env.PATH, LOG_LEVEL: 'warn', PORT: '0', VIBEEVAL_SCAN_RENDER: 'false', VIBEEVAL_SCAN_RATE: '0', VIBEEVAL_UNSUBSCRIBED_TIER: 'enterprise' };

// Each test's starts share a data dir and a database (on the run's shared PostgreSQL), as a restarted process does.
let database: FreshDatabase;
beforeEach(async () => {
  database = await freshDatabase();
});
afterEach(() => database.drop());

async function client(server: RunningServer, token?: string) {
  let bearer = token;
  if (!bearer) {
    bearer = (await signUp(server.origin, 'restart')).token;
  }
  const call = async (method: string, path: string, body?: unknown): Promise<unknown> => (await callApi(server.origin, method, path, { token: bearer, body })).json;
  return { token: bearer, call };
}

async function waitForScan(
  call: (method: string, path: string) => Promise<unknown>,
  projectId: string,
  done: (view: ProjectScanResponse) => boolean,
  timeoutMs = 60_000,
): Promise<ProjectScanResponse> {
  const started = Date.now();
  for (;;) {
    const view = projectScanResponseSchema.parse(await call('GET', `/project/${projectId}/scan`));
    if (done(view)) return view;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out; last state ${view.scan?.state}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Jobs of the scan queue for `scanId` that pg-boss holds, sent at or after `since`. */
async function scanJobsSentSince(scanId: string, since: Date): Promise<number> {
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  try {
    const { rows } = await db.query<{ n: number }>(`select count(*)::int as n from pgboss.job where name = 'scan' and data->>'scanId' = $1 and created_on >= $2`, [scanId, since]);
    return rows[0]!.n;
  } finally {
    await db.end();
  }
}

describe('scan jobs across a restart', () => {
  it('puts a scan interrupted by a stop back in the queue and finishes it after the restart', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'vibeeval-restart-'));
    try {
      const first = await startServer({ ...ENV, VIBEEVAL_DATA_DIR: dataDir, DATABASE_URL: database.url });
      const { token, call } = await client(first);
      const project = (await call('POST', '/project', { url: siteUrl, num_pages: 12 })) as { id: string };
      await call('PATCH', `/project_test/${project.id}`);
      const running = await waitForScan(call, project.id, (view) => view.scan?.state === 'running' && (view.scan.progress?.pagesDone ?? 0) >= 1);
      expect(projectScanResponseSchema.parse(await call('GET', `/project/${project.id}/scan`)).scan?.state).toBe('running');
      await first.close();

      const restartedAt = new Date();
      const second = await startServer({ ...ENV, VIBEEVAL_DATA_DIR: dataDir, DATABASE_URL: database.url });
      try {
        const again = await client(second, token);
        // The put-back scan is sent again by the new start itself, not a reaper lapse later.
        expect(await scanJobsSentSince(running.scan!.id, restartedAt)).toBeGreaterThanOrEqual(1);
        const view = await waitForScan(again.call, project.id, (v) => v.scan?.state === 'completed' || v.scan?.state === 'failed', 100_000);
        expect(view.scan?.state).toBe('completed');
        expect(view.result?.pages).toHaveLength(12);
        const events = (await again.call('GET', `/events/project/${project.id}?limit=500`)) as Array<{ extra: { description?: string } }>;
        expect(events.some((event) => event.extra.description === 'Scan interrupted by a server restart; it will run again')).toBe(true);
        expect(events.filter((event) => /^Scan started/.test(event.extra.description ?? ''))).toHaveLength(2);
      } finally {
        await second.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 180_000);

  it('records the requests of a scan interrupted and run again once, as many as an uninterrupted scan of the same site', async () => {
    // The same 12 pages, faster: each takes 300 ms.
    const quick = http.createServer((req, res) => {
      const n = Number(/\/p\/(\d+)/.exec(req.url ?? '')?.[1] ?? 0);
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(`<!doctype html><title>Page ${n}</title><a href="/p/${n + 1}">next</a><a href="/p/${n + 2}">skip</a>`);
      }, 300);
    });
    await new Promise<void>((resolve) => quick.listen(0, '127.0.0.1', resolve));
    const quickUrl = `http://127.0.0.1:${(quick.address() as AddressInfo).port}/`;
    const dataDir = await mkdtemp(join(tmpdir(), 'vibeeval-events-once-'));
    type Event = { event_name: string; extra: { description?: string; scan_id?: string } };
    const requestCounts = async (call: (method: string, path: string) => Promise<unknown>, projectId: string, scanId: string) => {
      const events = (await call('GET', `/events/project/${projectId}?limit=500&source=scan`)) as Event[];
      const counts: Record<string, number> = {};
      for (const event of events) {
        if (event.extra.scan_id !== scanId || event.event_name === 'other') continue;
        if (/^(Critical|High|Medium):/.test(event.extra.description ?? '')) continue; // findings, not requests
        counts[event.event_name] = (counts[event.event_name] ?? 0) + 1;
      }
      return counts;
    };
    try {
      const first = await startServer({ ...ENV, VIBEEVAL_DATA_DIR: dataDir, DATABASE_URL: database.url });
      const { token, call } = await client(first);
      const whole = (await call('POST', '/project', { url: quickUrl, num_pages: 12 })) as { id: string };
      await call('PATCH', `/project_test/${whole.id}`);
      const wholeView = await waitForScan(call, whole.id, (v) => v.scan?.state === 'completed' || v.scan?.state === 'failed');
      expect(wholeView.scan?.state).toBe('completed');
      const reference = await requestCounts(call, whole.id, wholeView.scan!.id);
      // The 12 pages and the probes the checks send (every path of this site answers a page).
      expect(reference.page_view).toBeGreaterThanOrEqual(12);

      const cut = (await call('POST', '/project', { url: quickUrl, num_pages: 12 })) as { id: string };
      await call('PATCH', `/project_test/${cut.id}`);
      const running = await waitForScan(call, cut.id, (view) => view.scan?.state === 'running' && (view.scan.progress?.pagesDone ?? 0) >= 4);
      await first.close();
      const firstAttempt = await (async () => {
        const again = await startServer({ ...ENV, VIBEEVAL_DATA_DIR: dataDir, DATABASE_URL: database.url, VIBEEVAL_SCAN_CONCURRENCY: '0' });
        try {
          return await requestCounts((await client(again, token)).call, cut.id, running.scan!.id);
        } finally {
          await again.close();
        }
      })();
      // The interrupted attempt did list requests before it stopped: the test would not see doubles otherwise.
      expect(firstAttempt.page_view ?? 0).toBeGreaterThanOrEqual(4);

      const second = await startServer({ ...ENV, VIBEEVAL_DATA_DIR: dataDir, DATABASE_URL: database.url });
      try {
        const { call: call2 } = await client(second, token);
        const view = await waitForScan(call2, cut.id, (v) => v.scan?.state === 'completed' || v.scan?.state === 'failed');
        expect(view.scan?.state).toBe('completed');
        expect(view.scan?.id).toBe(running.scan!.id);
        expect(await requestCounts(call2, cut.id, view.scan!.id)).toEqual(reference);
        const events = (await call2('GET', `/events/project/${cut.id}?limit=500`)) as Event[];
        expect(events.filter((event) => /^Scan started/.test(event.extra.description ?? ''))).toHaveLength(2);
      } finally {
        await second.close();
      }
    } finally {
      await new Promise<void>((resolve) => quick.close(() => resolve()));
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('marks a scan of an unreachable site failed with the reason, without retrying', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'vibeeval-fail-'));
    const server = await startServer({ ...ENV, VIBEEVAL_DATA_DIR: dataDir, DATABASE_URL: database.url });
    try {
      const { call } = await client(server);
      const project = (await call('POST', '/project', { url: 'http://127.0.0.1:1/' })) as { id: string };
      await call('PATCH', `/project_test/${project.id}`);
      const view = await waitForScan(call, project.id, (v) => v.scan?.state === 'failed' || v.scan?.state === 'completed');
      expect(view.scan?.state).toBe('failed');
      expect(view.scan?.error).toMatch(/refused the connection/);
      // Not running any more: a new test may start.
      expect(await call('PATCH', `/project_test/${project.id}`)).toMatchObject({ message: 'Project test has been started.' });
    } finally {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
