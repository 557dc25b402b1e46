import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProjectEvent } from '../../common/projects';
import { RECHECK_TEXTS, type Recheck } from '../../common/rechecks';
import { scan } from '../../engine/scan';
import { freshDatabase, type FreshDatabase } from '../testing/fresh-database';
import { callApi, signUp, type RawAnswer } from '../testing/http';
import { startTestServer, type TestServer } from '../testing/test-server';

// 'Check again' (POST /project/{id}/findings/{fingerprint}/recheck) against real servers, a database and a local site
// whose owner fixes things. The POST answers at once (202, queued); the job queue runs the check; GET
// /project/{id}/rechecks/{recheckId} says how it went, GET /project/{id}/rechecks lists the answers (the History).
// Still there, then fixed once the file is gone, each answer once in the project's activity; a second press while one
// runs answers the first; clear refusals for a project without a scan, an unknown finding, another workspace's project.
// Then team mode: two servers on one database, a press on each, one check; and a server stopped mid-check puts it
// back in the queue, for the next start to run.

/** The site: serves /.env while `env`; holds each /.env request while `held` (released by `release()`). */
class Site {
  env = true;
  held = false;
  envHits = 0;
  #waiting: Array<() => void> = [];
  #server = http.createServer((req, res) => {
    const answer = () => {
      if (req.url === '/.env' && this.env) res.writeHead(200, { 'content-type': 'text/plain' }).end('APP_ENV=production\nDB_PASSWORD=correct-horse-battery-staple\n');
      else if (req.url === '/') res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Shop</title><h1>Shop</h1>');
      else res.writeHead(404, { 'content-type': 'text/html' }).end('<!doctype html><title>Not found</title>');
    };
    if (req.url === '/.env') this.envHits++;
    if (req.url === '/.env' && this.held) this.#waiting.push(answer);
    else answer();
  });
  url = '';

  async start() {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/`;
  }
  /** Resolves once a /.env request is being held. */
  async holding(): Promise<void> {
    await until(async () => this.#waiting.length > 0, 'a held request');
  }
  release() {
    this.held = false;
    for (const answer of this.#waiting.splice(0)) answer();
  }
  close() {
    this.release();
    this.#server.closeAllConnections();
    return new Promise((resolve) => this.#server.close(resolve));
  }
}

/** Waits for `done` to hold, asking again every 50 ms, up to 30 s. */
async function until(done: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const ENV = { VIBEEVAL_SCAN_CONCURRENCY: '1', VIBEEVAL_SCENARIO_CONCURRENCY: '0', VIBEEVAL_SCAN_ALLOW_PRIVATE: 'true', VIBEEVAL_SCAN_RENDER: 'false', VIBEEVAL_SCAN_RATE: '0' };

const call = (server: TestServer, token: string, method: string, path: string, body?: unknown): Promise<RawAnswer> => callApi(server.origin, method, path, { token, body });

async function projectOf(server: TestServer, token: string, url: string): Promise<string> {
  const created = await call(server, token, 'POST', '/project', { url });
  expect(created.status, created.text).toBe(201);
  return (created.json as { id: string }).id;
}

/** Stores a completed scan of the site for the project, as the scan job would. */
async function scanned(databaseUrl: string, site: Site, project: string, userId: string) {
  const result = await scan(site.url, { maxPages: 1, render: false, rateLimit: 0 }, { addressPolicy: { allowPrivate: true } });
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `insert into scans (project_id, user_id, workspace_id, url, num_pages, state, result, score, grade, counts, finished_at)
       values ($1, $2, $2, $3, 1, 'completed', $4, $5, $6, $7, now())`,
      [project, userId, result.target.url, JSON.stringify(result), result.score, result.grade, JSON.stringify(result.counts)],
    );
  } finally {
    await client.end();
  }
  return result.findings.find((f) => f.checkId === 'exposed-env-file')!;
}

/** The check again, once it has finished. */
async function finished(server: TestServer, token: string, project: string, id: string): Promise<Recheck> {
  let recheck: Recheck | undefined;
  await until(async () => {
    const answer = await call(server, token, 'GET', `/project/${project}/rechecks/${id}`);
    expect(answer.status, answer.text).toBe(200);
    recheck = answer.json as Recheck;
    return recheck.state === 'completed' || recheck.state === 'failed';
  }, 'the check again to finish');
  return recheck!;
}

async function activityLines(server: TestServer, token: string, project: string): Promise<string[]> {
  const activity = (await call(server, token, 'GET', `/events/project/${project}`)).json as ProjectEvent[];
  return activity.map((event) => (event.extra as { description?: string } | null)?.description ?? '').filter((line) => line.startsWith('Checked again'));
}

describe('check again', () => {
  let server: TestServer;
  const site = new Site();

  beforeAll(async () => {
    await site.start();
    server = await startTestServer(ENV);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await site.close();
  });

  it('queues the check (202), says still there, then fixed once the site changed, each answer in the activity and the History', async () => {
    const user = await signUp(server.origin, 'recheck');
    const project = await projectOf(server, user.token, site.url);
    const path = (fingerprint: string) => `/project/${project}/findings/${fingerprint}/recheck`;
    expect((await call(server, user.token, 'POST', path('aaaaaaaaaaaaaaaa'))).json).toEqual({ detail: RECHECK_TEXTS.noScan });

    const env = await scanned(server.databaseUrl, site, project, user.id);
    expect(env).toBeDefined();

    const queued = await call(server, user.token, 'POST', path(env.fingerprint));
    expect(queued.status, queued.text).toBe(202);
    expect(queued.json).toMatchObject({ fingerprint: env.fingerprint, title: env.title, state: 'queued', status: null, checked_at: null });
    const still = await finished(server, user.token, project, (queued.json as Recheck).id);
    expect(still).toMatchObject({ state: 'completed', status: 'still_there', reason: null, error: null });
    expect(still.checked_at).not.toBeNull();

    site.env = false;
    const again = (await call(server, user.token, 'POST', path(env.fingerprint))).json as Recheck;
    expect(again.id).not.toBe(still.id);
    expect((await finished(server, user.token, project, again.id)).status).toBe('fixed');
    site.env = true;

    expect(await activityLines(server, user.token, project)).toEqual([RECHECK_TEXTS.event(env.title, 'fixed'), RECHECK_TEXTS.event(env.title, 'still_there')]);

    // The History's list: newest first, a page at a time.
    const first = await call(server, user.token, 'GET', `/project/${project}/rechecks?limit=1`);
    expect(first.status).toBe(200);
    expect((first.json as Recheck[]).map((r) => [r.id, r.status])).toEqual([[again.id, 'fixed']]);
    const page = await fetch(`${server.origin}/project/${project}/rechecks?limit=1`, { headers: { authorization: `Bearer ${user.token}` } });
    const cursor = page.headers.get('x-next-cursor');
    expect(cursor).toBeTruthy();
    const second = (await call(server, user.token, 'GET', `/project/${project}/rechecks?limit=1&cursor=${cursor}`)).json as Recheck[];
    expect(second.map((r) => [r.id, r.status])).toEqual([[still.id, 'still_there']]);
    const all = (await call(server, user.token, 'GET', `/project/${project}/rechecks`)).json as Recheck[];
    expect(all.map((r) => r.status)).toEqual(['fixed', 'still_there']);

    expect((await call(server, user.token, 'POST', path('bbbbbbbbbbbbbbbb'))).json).toEqual({ detail: RECHECK_TEXTS.findingNotFound });
    expect((await call(server, user.token, 'POST', path('not-a-fingerprint'))).status).toBe(404);
    const unknown = await call(server, user.token, 'GET', `/project/${project}/rechecks/00000000-0000-4000-8000-000000000000`);
    expect([unknown.status, unknown.json]).toEqual([404, { detail: RECHECK_TEXTS.notFound }]);

    // Another workspace's project is not found, finding, check again or list.
    const stranger = await signUp(server.origin, 'recheck-stranger');
    for (const [method, route] of [
      ['POST', path(env.fingerprint)],
      ['GET', `/project/${project}/rechecks/${again.id}`],
      ['GET', `/project/${project}/rechecks`],
    ] as const) {
      const refused = await call(server, stranger.token, method, route);
      expect([refused.status, refused.json]).toEqual([404, { detail: 'Project not found' }]);
    }
  }, 60_000);

  it('answers a second press with the check already running: the site is checked once, the answer recorded once', async () => {
    const user = await signUp(server.origin, 'recheck-twice');
    const project = await projectOf(server, user.token, site.url);
    const env = await scanned(server.databaseUrl, site, project, user.id);
    site.held = true;
    const path = `/project/${project}/findings/${env.fingerprint}/recheck`;
    const first = (await call(server, user.token, 'POST', path)).json as Recheck;
    await site.holding();
    const second = await call(server, user.token, 'POST', path);
    expect(second.status).toBe(202);
    expect(second.json).toMatchObject({ id: first.id, state: 'running' });
    site.release();
    expect((await finished(server, user.token, project, first.id)).status).toBe('still_there');
    expect(await activityLines(server, user.token, project)).toEqual([RECHECK_TEXTS.event(env.title, 'still_there')]);
  }, 60_000);
});

describe('check again in team mode', () => {
  let root: string;
  let database: FreshDatabase;
  let pool: pg.Pool;
  const site = new Site();
  const servers: TestServer[] = [];
  let env: Record<string, string>;

  beforeAll(async () => {
    await site.start();
    root = await mkdtemp(join(tmpdir(), 'vibeeval-rechecks-'));
    database = await freshDatabase();
    // One data dir: both servers sign and accept the same tokens, as a team's servers share their secrets.
    env = { ...ENV, DATABASE_URL: database.url, VIBEEVAL_DATA_DIR: join(root, 'data') };
    servers.push(await startTestServer(env), await startTestServer(env));
    pool = new pg.Pool({ connectionString: database.url, max: 2 });
  }, 120_000);
  afterAll(async () => {
    await pool?.end();
    for (const server of servers) await server.stop();
    await database?.drop();
    await site.close();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('runs one check when both servers are pressed at once, and records one answer', async () => {
    const [a, b] = servers as [TestServer, TestServer];
    const user = await signUp(a.origin, 'recheck-team');
    const project = await projectOf(a, user.token, site.url);
    const finding = await scanned(database.url, site, project, user.id);
    const path = `/project/${project}/findings/${finding.fingerprint}/recheck`;
    site.held = true;
    const hitsBefore = site.envHits;
    const answers = await Promise.all([call(a, user.token, 'POST', path), call(b, user.token, 'POST', path), call(a, user.token, 'POST', path), call(b, user.token, 'POST', path)]);
    expect(answers.map((answer) => answer.status)).toEqual([202, 202, 202, 202]);
    const ids = new Set(answers.map((answer) => (answer.json as Recheck).id));
    expect(ids.size).toBe(1);
    const [id] = [...ids] as [string];
    await site.holding();
    site.release();
    expect((await finished(b, user.token, project, id)).status).toBe('still_there');
    const { rows } = await pool.query<{ attempts: number }>('select attempts from finding_rechecks where project_id = $1', [project]);
    expect(rows).toEqual([{ attempts: 1 }]);
    expect(await activityLines(a, user.token, project)).toEqual([RECHECK_TEXTS.event(finding.title, 'still_there')]);
    // One check's requests: the held page was asked for by one server only.
    expect(site.envHits - hitsBefore).toBeLessThanOrEqual(2);
  }, 90_000);

  it('puts a check back in the queue when its server stops, and the next start runs it', async () => {
    // One server left: the one that stops runs the check.
    await servers.pop()!.stop();
    const a = servers[0]!;
    const user = await signUp(a.origin, 'recheck-stop');
    const project = await projectOf(a, user.token, site.url);
    const finding = await scanned(database.url, site, project, user.id);
    site.held = true;
    const queued = (await call(a, user.token, 'POST', `/project/${project}/findings/${finding.fingerprint}/recheck`)).json as Recheck;
    await site.holding();
    await servers.pop()!.stop();
    const { rows } = await pool.query<{ state: string }>('select state from finding_rechecks where id = $1', [queued.id]);
    expect(rows).toEqual([{ state: 'queued' }]);
    site.release();
    const next = await startTestServer(env);
    servers.push(next);
    expect((await finished(next, user.token, project, queued.id)).status).toBe('still_there');
    expect(await activityLines(next, user.token, project)).toEqual([RECHECK_TEXTS.event(finding.title, 'still_there')]);
  }, 90_000);
});
