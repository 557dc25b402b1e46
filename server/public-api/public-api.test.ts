import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ajv2020 } from 'ajv/dist/2020.js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_SIZES } from '../../common/pagination';
import { callApi, signUp } from '../testing/http';
import { startTestServer } from '../testing/test-server';

type Server = Awaited<ReturnType<typeof startTestServer>>;

// The public API against a real scan: POST /v1/scans queues a scan job that crawls a local fixture site to the end,
// GET /v1/scans/{id} gives its findings with evidence and remediation; one user never sees another's scans; a
// server that refuses private addresses refuses them here too; the OpenAPI document is valid and complete.

let server: Server;
let site: http.Server;
let siteUrl: string;
let owner: { token: string; key: string };
let database: pg.Pool;

/** The result as the scan job stored it. */
async function storedResult(id: string): Promise<{ coverage?: unknown }> {
  const { rows } = await database.query<{ result: { coverage?: unknown } }>('select result from scans where id = $1', [id]);
  return rows[0]!.result;
}
let other: { token: string; key: string };

const call = (method: string, path: string, key: string | undefined, body?: unknown, target: Server = server) => callApi(target.origin, method, path, { token: key, body });

async function account(target: Server, label: string) {
  const user = await signUp(target.origin, label);
  const created = await call('POST', '/api_keys', user.token, { name: label }, target);
  return { token: user.token, key: (created.json as { key: string }).key };
}

interface ScanAnswer {
  id: string;
  status: string;
  url: string;
  project_id: string;
  completed_at: string | null;
  results: null | {
    issues: number;
    warnings: number;
    score: number;
    grade: string;
    categories: Record<string, { issues: number; warnings: number; passed: number }>;
    findings: { severity: string; evidence: Record<string, string>; remediation: string; family: string }[];
    coverage: null | { checksSkipped: unknown[]; fetched?: { pages: number; scripts: number }; rendering?: { ran: boolean; reason?: string } };
    screenshots: null;
  };
}

beforeAll(async () => {
  // A small shop that leaks its environment file and sends no security headers.
  site = http.createServer((req, res) => {
    if (req.url === '/.env') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      return res.end('DATABASE_URL=postgres://shop:hunter2@db.internal/shop\nSTRIPE_SECRET_KEY=sk_live_51HxYzAbCdEfGhIjKlMnOpQr\n');
    }
    res.writeHead(req.url === '/' ? 200 : 404, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>Shop</title><p>Shop</p>');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  server = await startTestServer({ VIBEEVAL_SCAN_ALLOW_PRIVATE: 'true', VIBEEVAL_SCAN_RENDER: 'false', VIBEEVAL_SCAN_RATE: '0', VIBEEVAL_SCENARIO_CONCURRENCY: '0' });
  database = new pg.Pool({ connectionString: server.databaseUrl, max: 1 });
  owner = await account(server, 'v1-owner');
  other = await account(server, 'v1-other');
}, 120_000);

afterAll(async () => {
  await database?.end();
  await server?.stop();
  await new Promise<void>((resolve) => site?.close(() => resolve()));
});

describe('/v1/scans', () => {
  it('runs a real scan to completion and gives its findings with evidence and remediation', async () => {
    const started = await call('POST', '/v1/scans', owner.key, { url: siteUrl, options: { depth: 2, include_screenshots: true } });
    expect(started.status, started.text).toBe(202);
    const scan = started.json as ScanAnswer;
    expect(scan).toMatchObject({ status: 'pending', url: siteUrl, results: null, completed_at: null });

    // The same site, typed without the root's slash, while that scan is active: 409 naming it, and no second scan
    // nor a second project.
    const again = await call('POST', '/v1/scans', owner.key, { url: siteUrl.slice(0, -1) });
    if (again.status === 409) expect((again.json as { detail: string }).detail).toContain(scan.id);
    else expect(again.json).toMatchObject({ project_id: scan.project_id }); // the first scan already finished: a new one is fine

    let done: ScanAnswer = scan;
    for (let i = 0; i < 300 && done.status !== 'completed' && done.status !== 'failed'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      done = (await call('GET', `/v1/scans/${scan.id}`, owner.key)).json as ScanAnswer;
    }
    expect(done.status).toBe('completed');
    expect(done.completed_at).toEqual(expect.any(String));
    const results = done.results!;
    expect(results.screenshots).toBeNull();
    expect(results.score).toBeGreaterThanOrEqual(0);
    expect(results.findings.length).toBeGreaterThan(0);
    const leaked = results.findings.find((finding) => finding.family === 'exposed-files' || finding.family === 'secrets');
    expect(leaked, JSON.stringify(results.findings.map((f) => f.family))).toBeDefined();
    expect(leaked!.remediation.length).toBeGreaterThan(10);
    expect(Object.keys(leaked!.evidence).length).toBeGreaterThan(0);
    // The evidence masks the secret it found.
    expect(JSON.stringify(results)).not.toContain('hunter2');
    const serious = results.findings.filter((finding) => ['critical', 'high', 'medium'].includes(finding.severity)).length;
    expect(results.issues).toBe(serious);
    expect(results.warnings).toBe(results.findings.filter((finding) => finding.severity === 'low').length);
    expect(Object.values(results.categories).reduce((sum, family) => sum + family.issues, 0)).toBe(serious);

    // What the scan could check comes with it, the same object the stored result holds: nothing rendered here.
    const stored = await storedResult(scan.id);
    expect(results.coverage).toEqual(stored.coverage);
    expect(results.coverage).toMatchObject({ checksSkipped: [], fetched: { pages: 1 }, rendering: { ran: false } });

    // The project made for the URL took the depth as its pages.
    const project = (await call('GET', `/project/${scan.project_id}`, owner.token)).json as { num_pages: number };
    expect(project.num_pages).toBe(2);
  }, 60_000);

  it('takes a site however it is typed as the one project the dashboard made for it', async () => {
    const mine = await account(server, 'v1-same-site');
    const created = await call('POST', '/project', mine.token, { url: `${siteUrl}Same/` });
    const project = created.json as { id: string; url: string };
    expect(project.url).toBe(`${siteUrl}Same`);
    const first = await call('POST', '/v1/scans', mine.key, { url: `${siteUrl}Same` });
    expect(first.status, first.text).toBe(202);
    expect(first.json).toMatchObject({ project_id: project.id, url: `${siteUrl}Same` });
    const again = await call('POST', '/v1/scans', mine.key, { url: `HTTP://127.0.0.1:${new URL(siteUrl).port}/Same/#top` });
    if (again.status === 409) expect((again.json as { detail: string }).detail).toContain((first.json as { id: string }).id);
    else expect(again.json).toMatchObject({ project_id: project.id });
    const projects = (await call('GET', '/projects', mine.token)).json as { id: string }[];
    expect(projects.map((p) => p.id)).toEqual([project.id]);
  });

  it("starts a signed-in scan of the caller's project by its id, never taking a password in the body", async () => {
    const url = `${siteUrl}signed-in`;
    const mine = await account(server, 'v1-signed-in');
    const created = await call('POST', '/project', mine.token, { url, secret_instruction: 'alice@example.com S3cret-api-pw' });
    const project = created.json as { id: string };
    const started = await call('POST', '/v1/scans', mine.key, { projectId: project.id, options: { depth: 1 } });
    expect(started.status, started.text).toBe(202);
    expect(started.json).toMatchObject({ project_id: project.id, url, status: 'pending' });
    expect(started.text).not.toContain('S3cret-api-pw');
    // Another workspace's project, or an unknown id: 404, and nothing queued.
    expect(await call('POST', '/v1/scans', other.key, { projectId: project.id })).toMatchObject({ status: 404, json: { detail: 'Project not found' } });
    expect(await call('POST', '/v1/scans', mine.key, { projectId: 'not-a-project' })).toMatchObject({ status: 404, json: { detail: 'Project not found' } });
    // A different URL beside the id, no target at all, a password or accounts in the body: 400 with the reason.
    expect((await call('POST', '/v1/scans', mine.key, { projectId: project.id, url: siteUrl })).json).toEqual({
      detail: `url must be the project's URL (${url}) when projectId is given`,
    });
    expect(await call('POST', '/v1/scans', mine.key, {})).toMatchObject({ status: 400, json: { detail: 'url or projectId is required' } });
    const refusal = "Passwords are never sent in a request: store the test accounts in the project's Credentials and send its projectId to scan signed in.";
    for (const body of [
      { url, password: 'S3cret-api-pw' },
      { projectId: project.id, accounts: [{ login: 'a@example.com', password: 'S3cret-api-pw' }] },
    ]) {
      const answer = await call('POST', '/v1/scans', mine.key, body);
      expect(answer).toMatchObject({ status: 400, json: { detail: refusal } });
      expect(answer.text).not.toContain('S3cret-api-pw');
    }
  });

  it('gives coverage null for a result stored before coverage was recorded', async () => {
    const { scans } = (await call('GET', '/v1/scans', owner.key)).json as { scans: { id: string; status: string }[] };
    const done = scans.find((scan) => scan.status === 'completed')!;
    await database.query(`update scans set result = result - 'coverage' where id = $1`, [done.id]);
    const answer = (await call('GET', `/v1/scans/${done.id}`, owner.key)).json as ScanAnswer;
    expect(answer.results).toMatchObject({ coverage: null, score: expect.any(Number) as number });
  });

  it('lists the scans newest first with their total, in pages', async () => {
    const list = await fetch(`${server.origin}/v1/scans?limit=1`, { headers: { authorization: `Bearer ${owner.key}` } });
    const page = (await list.json()) as { scans: { id: string; status: string }[]; total: number; next_cursor: string | null };
    expect(list.status).toBe(200);
    expect(page.scans).toHaveLength(1);
    expect(page.total).toBeGreaterThanOrEqual(1);
    if (page.total > 1) {
      expect(list.headers.get('x-next-cursor')).toBe(page.next_cursor);
      const next = (await call('GET', `/v1/scans?limit=1&cursor=${page.next_cursor}`, owner.key)).json as typeof page;
      expect(next.scans[0]!.id).not.toBe(page.scans[0]!.id);
    } else expect(page.next_cursor).toBeNull();
    expect((await call('GET', '/v1/scans?limit=0', owner.key)).json).toEqual({ detail: 'limit: must be at least 1' });
  });

  it("answers 404 for another user's scan and lists none of it", async () => {
    const mine = (await call('GET', '/v1/scans', owner.key)).json as { scans: { id: string }[] };
    const id = mine.scans[0]!.id;
    const answer = await call('GET', `/v1/scans/${id}`, other.key);
    expect(answer.status).toBe(404);
    expect(answer.json).toEqual({ detail: 'Scan not found' });
    const theirs = (await call('GET', '/v1/scans', other.key)).json as { scans: unknown[]; total: number };
    expect(theirs).toEqual({ scans: [], total: 0, next_cursor: null });
    expect(((await call('GET', '/v1/projects', other.key)).json as { projects: unknown[] }).projects).toEqual([]);
  });

  it('lists projects with their last scan', async () => {
    const answer = (await call('GET', '/v1/projects', owner.key)).json as { projects: { url: string; name: string; last_scan: { status: string } | null }[] };
    expect(answer.projects).toHaveLength(1);
    expect(answer.projects[0]).toMatchObject({ url: siteUrl, name: '127.0.0.1' });
    expect(['pending', 'in_progress', 'completed', 'failed']).toContain(answer.projects[0]!.last_scan?.status);
  });

  it('refuses bodies it cannot scan with a detail', async () => {
    expect((await call('POST', '/v1/scans', owner.key, { url: 'ftp://example.com/' })).status).toBe(400);
    const deep = await call('POST', '/v1/scans', owner.key, { url: siteUrl, options: { depth: 100_000 } });
    expect(deep.json).toEqual({ detail: 'options.depth: cannot exceed 1000' });
  });
});

describe('GET /v1/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document with every /v1 route, the bearer scheme and the error answers', async () => {
    const answer = await call('GET', '/v1/openapi.json', undefined);
    expect(answer.status).toBe(200);
    const document = answer.json as {
      openapi: string;
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
      components: { schemas: Record<string, object>; securitySchemes: object };
    };
    // The official OpenAPI 3.1 schema (spec.openapis.org/oas/3.1/schema/2022-10-07), and every component schema
    // checked against JSON Schema 2020-12 itself.
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    // Ajv resolves the schema's `$dynamicRef: "#meta"` (where a Schema Object goes) to the wrong anchor, so Schema
    // Objects are accepted there as any object or boolean and checked against JSON Schema 2020-12 below instead.
    const official = JSON.parse(readFileSync(new URL('./openapi-3.1.schema.json', import.meta.url), 'utf8'), (_key, value: unknown) =>
      value && typeof value === 'object' && (value as { $dynamicRef?: string }).$dynamicRef === '#meta' ? { type: ['object', 'boolean'] } : value,
    ) as object;
    const validate = ajv.compile(official);
    expect(validate(document), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...document, openapi: '3.0.3' })).toBe(false);
    expect(validate({ ...document, paths: { '/v1/scans': { get: { responses: { '200': { content: {} } } } } } })).toBe(false);
    for (const [name, schema] of Object.entries(document.components.schemas)) expect(ajv.validateSchema(schema), name).toBe(true);

    expect(document.openapi).toBe('3.1.0');
    expect(document.components.securitySchemes).toMatchObject({ apiKey: { type: 'http', scheme: 'bearer' } });
    const operations = Object.entries(document.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })));
    expect(operations.map(({ key }) => key).sort()).toEqual([
      'DELETE /v1/projects/{id}/decisions/{fingerprint}',
      'GET /v1/projects',
      'GET /v1/projects/{id}/baseline',
      'GET /v1/projects/{id}/decisions',
      'GET /v1/projects/{id}/scans',
      'GET /v1/projects/{id}/scans/diff',
      'GET /v1/scans',
      'GET /v1/scans/{id}',
      'POST /v1/scans',
      'PUT /v1/projects/{id}/decisions/{fingerprint}',
    ]);
    for (const { key, op } of operations) expect(Object.keys(op.responses), key).toEqual(expect.arrayContaining(['401', '429']));
    expect(Object.keys(document.paths['/v1/scans/{id}']!.get!.responses)).toContain('404');
    // Each list documents its own page size: the decisions list pages up to 500 (as its route), the scans up to 100.
    const limitOf = (path: string) =>
      (document.paths[path]!.get as unknown as { parameters: Array<{ name: string; schema: { maximum: number; default: number } }> }).parameters.find((p) => p.name === 'limit')!
        .schema;
    expect(limitOf('/v1/projects/{id}/decisions')).toMatchObject({ maximum: PAGE_SIZES.decisions.max, default: PAGE_SIZES.decisions.fallback });
    expect(limitOf('/v1/scans')).toMatchObject({ maximum: PAGE_SIZES.publicScans.max });

    // A scan's results say what could not be checked: coverage is documented, nullable, with its parts.
    const scanSchema = document.components.schemas.Scan as {
      properties: { results: { anyOf: Array<{ properties?: Record<string, { anyOf?: Array<{ type?: string; properties?: Record<string, unknown> }>; description?: string }> }> } };
    };
    const results = scanSchema.properties.results.anyOf.find((option) => option.properties)!;
    const coverage = results.properties!.coverage!;
    expect(coverage.description).toMatch(/^What the scan could and could not check/);
    expect(coverage.anyOf!.map((option) => option.type ?? 'object').sort()).toEqual(['null', 'object']);
    const parts = coverage.anyOf!.find((option) => option.properties)!.properties!;
    expect(Object.keys(parts)).toEqual(expect.arrayContaining(['checksSkipped', 'fetched', 'rendering', 'backends', 'loginRequired', 'rateLimited']));
  });
});
