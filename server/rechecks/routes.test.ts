import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProjectEvent } from '../../common/projects';
import { RECHECK_TEXTS, type RecheckResponse } from '../../common/rechecks';
import { scan } from '../../engine/scan';
import { apiCaller, signUp } from '../testing/http';
import { startTestServer, type TestServer } from '../testing/test-server';

// 'Check again' (POST /project/{id}/findings/{fingerprint}/recheck) against a real server, database and a local site
// whose owner fixes things: still there, then fixed once the file is gone, each answer in the project's activity;
// clear refusals for a project without a scan, an unknown finding, and another workspace's project.

let server: TestServer;
const site = { env: true };
let siteServer: http.Server;
let siteUrl: string;

beforeAll(async () => {
  siteServer = http.createServer((req, res) => {
    if (req.url === '/.env' && site.env) res.writeHead(200, { 'content-type': 'text/plain' }).end('APP_ENV=production\nDB_PASSWORD=correct-horse-battery-staple\n');
    else if (req.url === '/') res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Shop</title><h1>Shop</h1>');
    else res.writeHead(404, { 'content-type': 'text/html' }).end('<!doctype html><title>Not found</title>');
  });
  await new Promise<void>((resolve) => siteServer.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(siteServer.address() as AddressInfo).port}/`;
  server = await startTestServer({ VIBEEVAL_SCAN_CONCURRENCY: '0', VIBEEVAL_SCENARIO_CONCURRENCY: '0', VIBEEVAL_SCAN_ALLOW_PRIVATE: 'true', VIBEEVAL_SCAN_RENDER: 'false', VIBEEVAL_SCAN_RATE: '0' });
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await new Promise((resolve) => siteServer?.close(resolve));
});

const call = apiCaller(() => server.origin);

async function projectOf(token: string): Promise<string> {
  const created = await call(token, 'POST', '/project', { url: siteUrl });
  expect(created.status, created.text).toBe(201);
  return (created.json as { id: string }).id;
}

/** Stores a completed scan of the site for the project, as the scan job would. */
async function scanned(project: string, userId: string) {
  const result = await scan(siteUrl, { maxPages: 1, render: false, rateLimit: 0 }, { addressPolicy: { allowPrivate: true } });
  const client = new pg.Client({ connectionString: server.databaseUrl });
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
  return result;
}

describe('check again', () => {
  it('says still there, then fixed once the site changed, and records each answer in the project activity', async () => {
    const user = await signUp(server.origin, 'recheck');
    const project = await projectOf(user.token);
    const path = (fingerprint: string) => `/project/${project}/findings/${fingerprint}/recheck`;
    expect((await call(user.token, 'POST', path('aaaaaaaaaaaaaaaa'))).json).toEqual({ detail: RECHECK_TEXTS.noScan });

    const result = await scanned(project, user.id);
    const env = result.findings.find((f) => f.checkId === 'exposed-env-file')!;
    expect(env).toBeDefined();

    const still = await call(user.token, 'POST', path(env.fingerprint));
    expect(still.status, still.text).toBe(200);
    expect(still.json).toMatchObject({ fingerprint: env.fingerprint, status: 'still_there', reason: null });
    site.env = false;
    const fixed = await call(user.token, 'POST', path(env.fingerprint));
    expect((fixed.json as RecheckResponse).status).toBe('fixed');
    site.env = true;

    const activity = (await call(user.token, 'GET', `/events/project/${project}`)).json as ProjectEvent[];
    const lines = activity.map((event) => (event.extra as { description?: string } | null)?.description).filter((line) => line?.startsWith('Checked again'));
    expect(lines).toEqual([RECHECK_TEXTS.event(env.title, 'fixed'), RECHECK_TEXTS.event(env.title, 'still_there')]);

    expect((await call(user.token, 'POST', path('bbbbbbbbbbbbbbbb'))).json).toEqual({ detail: RECHECK_TEXTS.findingNotFound });
    expect((await call(user.token, 'POST', path('not-a-fingerprint'))).status).toBe(404);

    // Another workspace's project is not found, finding or not.
    const stranger = await signUp(server.origin, 'recheck-stranger');
    const refused = await call(stranger.token, 'POST', path(env.fingerprint));
    expect(refused.status).toBe(404);
    expect(refused.json).toEqual({ detail: 'Project not found' });
  });
});
