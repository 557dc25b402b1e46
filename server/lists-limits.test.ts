import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NEXT_CURSOR_HEADER } from '../common/pagination';
import { projectScanResponseSchema } from '../common/projects';
import { startTestServer } from './testing/test-server';
import { callApi, signUp } from './testing/http';

// Every list answers in pages (keyset cursor in X-Next-Cursor and Link), and every creation route is limited per user.

const LIMIT = 12;
let server: Awaited<ReturnType<typeof startTestServer>>;
let site: http.Server;
let siteUrl: string;

beforeAll(async () => {
  site = http.createServer((req, res) => {
    res.writeHead(req.url === '/' ? 200 : 404, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>Shop</title><h1>Shop</h1>');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  server = await startTestServer({ VIBEEVAL_SCAN_RENDER: 'false', VIBEEVAL_SCAN_RATE: '0', CREATE_MAX_PER_WINDOW: String(LIMIT), VIBEEVAL_CORS_ORIGINS: 'app://vibeeval' });
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await new Promise<void>((resolve) => site.close(() => resolve()));
});

let counter = 0;
/** A new account's `call(method, path, body?, headers?)`. */
async function account() {
  const { token } = await signUp(server.origin, `lists${counter++}`);
  return (method: string, path: string, body?: unknown, headers?: Record<string, string>) => callApi(server.origin, method, path, { token, body, headers });
}

/** Follows X-Next-Cursor from `path` to the last page; checks the Link header says the same. */
async function allPages(call: Awaited<ReturnType<typeof account>>, path: string) {
  const pages: { id: string }[][] = [];
  for (let next: string | null = path; next;) {
    const answer = await call('GET', next);
    expect(answer.status).toBe(200);
    pages.push(answer.json as { id: string }[]);
    const cursor = answer.headers.get(NEXT_CURSOR_HEADER);
    if (cursor) expect(answer.headers.get('link')).toMatch(new RegExp(`^<[^>]*cursor=${cursor}[^>]*>; rel="next"$`));
    else expect(answer.headers.get('link')).toBeNull();
    next = cursor ? `${path}${path.includes('?') ? '&' : '?'}cursor=${cursor}` : null;
  }
  return pages;
}

describe('paginated lists', () => {
  it('pages through projects newest first, stable while projects are added, with the cursor in headers', async () => {
    const call = await account();
    const created: string[] = [];
    for (let i = 0; i < 7; i++) created.push(((await call('POST', '/project', { url: `${siteUrl}?n=${i}` })).json as { id: string }).id);

    const first = await call('GET', '/projects?limit=3');
    expect((first.json as { id: string }[]).map((p) => p.id)).toEqual(created.slice(4).reverse());
    const cursor = first.headers.get(NEXT_CURSOR_HEADER)!;
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(first.headers.get('link')).toBe(`</projects?limit=3&cursor=${cursor}>; rel="next"`);
    // A project added now goes in front: the next pages neither repeat nor skip anything.
    const added = ((await call('POST', '/project', { url: siteUrl })).json as { id: string }).id;
    const second = await call('GET', `/projects?limit=3&cursor=${cursor}`);
    expect((second.json as { id: string }[]).map((p) => p.id)).toEqual(created.slice(1, 4).reverse());
    const third = await call('GET', `/projects?limit=3&cursor=${second.headers.get(NEXT_CURSOR_HEADER)}`);
    expect((third.json as { id: string }[]).map((p) => p.id)).toEqual([created[0]]);
    expect(third.headers.get(NEXT_CURSOR_HEADER)).toBeNull();

    const everything = (await allPages(call, '/projects?limit=2')).flat().map((p) => p.id);
    expect(everything).toEqual([added, ...created.slice().reverse()]);
    // Without a limit: the default page (50) holds them all, as a plain list.
    expect(((await call('GET', '/projects')).json as unknown[]).length).toBe(8);
  });

  it('refuses a forged cursor and a limit out of range with a detail naming the parameter', async () => {
    const call = await account();
    for (const path of [
      '/projects?cursor=bm90LWEtY3Vyc29y',
      '/events/recent?cursor=W10',
      '/report_links/recent?cursor=a.b',
      '/projects?limit=0',
      '/projects?limit=201',
      '/events/recent?limit=501',
    ]) {
      const answer = await call('GET', path);
      expect(answer.status, path).toBe(400);
      expect((answer.json as { detail: string }).detail, path).toMatch(/^(cursor|limit)/);
    }
    expect((await call('GET', '/events/recent?limit=30')).status).toBe(200);
  });

  it('pages through events and report links, and exposes the headers to the desktop app', async () => {
    const call = await account();
    const project = (await call('POST', '/project', { url: siteUrl })).json as { id: string };
    await call('PATCH', `/project_test/${project.id}`);
    for (const started = Date.now(); ;) {
      const view = projectScanResponseSchema.parse((await call('GET', `/project/${project.id}/scan`)).json);
      if (view.scan?.state === 'completed') break;
      expect(Date.now() - started).toBeLessThan(60_000);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    for (let i = 0; i < 2; i++) expect((await call('POST', '/reports', { project_id: project.id, type: 'security' })).status).toBe(201);

    const all = (await call('GET', `/events/project/${project.id}?limit=500`)).json as { id: string }[];
    expect(all.length).toBeGreaterThan(4);
    expect((await allPages(call, `/events/project/${project.id}?limit=3`)).flat()).toEqual(all);
    expect((await allPages(call, '/events/recent?limit=4')).flat()).toEqual((await call('GET', '/events/recent?limit=500')).json);
    const reports = await allPages(call, '/report_links/recent?limit=1');
    expect(reports).toHaveLength(3);
    expect(new Set(reports.flat().map((r) => r.id)).size).toBe(3);

    const cors = await call('GET', '/events/recent?limit=1', undefined, { origin: 'app://vibeeval' });
    expect(cors.headers.get('access-control-expose-headers')).toMatch(/x-next-cursor/i);
  }, 90_000);
});

describe('creation limits', () => {
  it('answers 429 with Retry-After and a detail once a user creates too much, per route and per user', async () => {
    const flooder = await account();
    for (let i = 0; i < LIMIT; i++) expect((await flooder('POST', '/project', { url: siteUrl })).status).toBe(201);
    const refused = await flooder('POST', '/project', { url: siteUrl });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((refused.json as { detail: string }).detail).toMatch(/^Too many requests: at most 12 of these in a minute\. Try again in \d+ seconds?\.$/);
    expect(((await flooder('GET', '/projects')).json as unknown[]).length).toBe(LIMIT);
    // Another counter (live tickets) and another user are not affected.
    expect((await flooder('POST', '/live/ticket')).status).toBe(200);
    expect((await (await account())('POST', '/project', { url: siteUrl })).status).toBe(201);
  });

  it('limits starting scans, generating reports and live tickets the same way', async () => {
    const call = await account();
    for (let i = 0; i < LIMIT; i++) expect((await call('POST', '/live/ticket')).status).toBe(200);
    expect((await call('POST', '/live/ticket')).status).toBe(429);
    for (let i = 0; i < LIMIT; i++) expect((await call('POST', '/reports', { project_id: '00000000-0000-4000-8000-000000000000', type: 'security' })).status).toBe(404);
    const report = await call('POST', '/reports', { project_id: '00000000-0000-4000-8000-000000000000', type: 'security' });
    expect(report.status).toBe(429);
    for (let i = 0; i < LIMIT; i++) expect((await call('PATCH', '/project_test/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await call('PATCH', '/project_test/00000000-0000-4000-8000-000000000000')).status).toBe(429);
  });
});
