import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_REASON_CHARS, TRIAGE_TEXTS, type BaselineEntry, type Decision } from '../../common/triage';
import type { ProjectScanResponse } from '../../common/projects';
import { loadSampleResult } from '../../engine/report/__fixtures__/load';
import { insertApiKey } from '../mcp/testing';
import { apiCaller, signUp } from '../testing/http';
import { startTestServer, type TestServer } from '../testing/test-server';

// The triage routes of the dashboard (/project/{id}/decisions, /baseline) and of the public API (/v1/projects/{id}/...)
// against a real server and database: validation with clear messages, who and when kept, reopen, expiry, the baseline
// export, pages, and another workspace's project answering 404 on every route.

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ VIBEEVAL_SCAN_CONCURRENCY: '0', VIBEEVAL_SCENARIO_CONCURRENCY: '0', VIBEEVAL_API_PLAN: 'enterprise' });
}, 60_000);
afterAll(async () => {
  await server?.stop();
});

const call = apiCaller(() => server.origin);

const FP = { a: 'aaaaaaaaaaaaaaaa', b: 'bbbbbbbbbbbbbbbb', c: 'cccccccccccccccc' };
const future = () => new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);

async function projectOf(token: string): Promise<string> {
  const created = await call(token, 'POST', '/project', { url: 'https://triage.example.com/' });
  expect(created.status, created.text).toBe(201);
  return (created.json as { id: string }).id;
}

describe('triage routes', () => {
  it('sets, lists, changes and reopens decisions, keeping who and when; validates with clear messages', async () => {
    const user = await signUp(server.origin, 'triage');
    const project = await projectOf(user.token);
    const base = `/project/${project}/decisions`;

    const set = await call(user.token, 'PUT', `${base}/${FP.a}`, { decision: 'false_positive', reason: '  The key is a public anon key.  ' });
    expect(set.status, set.text).toBe(200);
    expect(set.json).toMatchObject({
      fingerprint: FP.a,
      decision: 'false_positive',
      reason: 'The key is a public anon key.',
      expires_at: null,
      decided_by: { id: user.id, email: user.email },
      active: true,
    });
    const expiry = future();
    const risk = await call(user.token, 'PUT', `${base}/${FP.b}`, { decision: 'accepted_risk', reason: 'Fixed next sprint', expires_at: expiry });
    expect((risk.json as Decision).expires_at).toBe(`${expiry}T23:59:59.999Z`);

    expect((await call(user.token, 'PUT', `${base}/${FP.c}`, { decision: 'false_positive' })).json).toEqual({ detail: TRIAGE_TEXTS.reasonRequired });
    expect((await call(user.token, 'PUT', `${base}/${FP.c}`, { decision: 'false_positive', reason: '   ' })).json).toEqual({ detail: TRIAGE_TEXTS.reasonRequired });
    expect((await call(user.token, 'PUT', `${base}/${FP.c}`, { decision: 'false_positive', reason: 'x'.repeat(MAX_REASON_CHARS + 1) })).json).toEqual({
      detail: TRIAGE_TEXTS.reasonTooLong,
    });
    expect((await call(user.token, 'PUT', `${base}/${FP.c}`, { decision: 'ignored', reason: 'x' })).json).toEqual({ detail: TRIAGE_TEXTS.decisionInvalid });
    expect((await call(user.token, 'PUT', `${base}/${FP.c}`, { decision: 'accepted_risk', reason: 'x', expires_at: '2020-01-01' })).json).toEqual({
      detail: TRIAGE_TEXTS.expiryPast,
    });
    expect((await call(user.token, 'PUT', `${base}/${FP.c}`, { decision: 'accepted_risk', reason: 'x', expires_at: '2027-02-30' })).json).toEqual({
      detail: TRIAGE_TEXTS.expiryInvalid,
    });
    expect((await call(user.token, 'PUT', `${base}/${FP.c}`, { decision: 'false_positive', reason: 'x', expires_at: expiry })).json).toEqual({
      detail: TRIAGE_TEXTS.expiryOnlyForRisk,
    });
    expect((await call(user.token, 'PUT', `${base}/NOT-HEX`, { decision: 'false_positive', reason: 'x' })).json).toEqual({ detail: TRIAGE_TEXTS.fingerprintInvalid });

    const first = await fetch(`${server.origin}${base}?limit=1`, { headers: { authorization: `Bearer ${user.token}` } });
    expect(((await first.json()) as Decision[]).map((d) => d.fingerprint)).toEqual([FP.b]);
    const cursor = first.headers.get('x-next-cursor');
    expect(cursor).toEqual(expect.any(String));
    expect(((await call(user.token, 'GET', `${base}?limit=1&cursor=${cursor}`)).json as Decision[]).map((d) => d.fingerprint)).toEqual([FP.a]);

    // Changing a decision replaces it (one per fingerprint).
    await call(user.token, 'PUT', `${base}/${FP.a}`, { decision: 'accepted_risk', reason: 'Changed our mind' });
    const all = (await call(user.token, 'GET', base)).json as Decision[];
    expect(all.map((d) => [d.fingerprint, d.decision])).toEqual([
      [FP.a, 'accepted_risk'],
      [FP.b, 'accepted_risk'],
    ]);

    expect((await call(user.token, 'DELETE', `${base}/${FP.a}`)).status).toBe(204);
    expect((await call(user.token, 'DELETE', `${base}/${FP.a}`)).json).toEqual({ detail: TRIAGE_TEXTS.notFound });
    expect(((await call(user.token, 'GET', base)).json as Decision[]).map((d) => d.fingerprint)).toEqual([FP.b]);
  });

  it('exports the decisions in force as the baseline; an expired accepted risk is listed as inactive and left out', async () => {
    const user = await signUp(server.origin, 'triage-baseline');
    const project = await projectOf(user.token);
    await call(user.token, 'PUT', `/project/${project}/decisions/${FP.a}`, { decision: 'false_positive', reason: 'Test data' });
    await call(user.token, 'PUT', `/project/${project}/decisions/${FP.b}`, { decision: 'accepted_risk', reason: 'Until the migration', expires_at: future() });
    const client = new pg.Client({ connectionString: server.databaseUrl });
    await client.connect();
    try {
      await client.query(`update finding_decisions set expires_at = now() - interval '1 day' where project_id = $1 and fingerprint = $2`, [project, FP.b]);
    } finally {
      await client.end();
    }
    const listed = (await call(user.token, 'GET', `/project/${project}/decisions`)).json as Decision[];
    expect(listed.map((d) => [d.fingerprint, d.active])).toEqual([
      [FP.b, false],
      [FP.a, true],
    ]);
    const baseline = (await call(user.token, 'GET', `/project/${project}/baseline`)).json as BaselineEntry[];
    expect(baseline).toEqual([{ fingerprint: FP.a, decision: 'false_positive', reason: 'Test data', expires_at: null }]);
  });

  it('works with an API key under /v1, and another workspace’s project is 404 on every route', async () => {
    const owner = await signUp(server.origin, 'triage-owner');
    const other = await signUp(server.origin, 'triage-other');
    const project = await projectOf(owner.token);
    const key = await insertApiKey(server.databaseUrl, owner.id);
    const otherKey = await insertApiKey(server.databaseUrl, other.id);

    const put = await call(key, 'PUT', `/v1/projects/${project}/decisions/${FP.a}`, { decision: 'accepted_risk', reason: 'Internal tool', expires_at: future() });
    expect(put.status, put.text).toBe(200);
    const page = (await call(key, 'GET', `/v1/projects/${project}/decisions`)).json as { decisions: Decision[]; next_cursor: string | null };
    expect(page).toMatchObject({ decisions: [{ fingerprint: FP.a, decided_by: { id: owner.id } }], next_cursor: null });
    expect(((await call(key, 'GET', `/v1/projects/${project}/baseline`)).json as BaselineEntry[]).map((e) => e.fingerprint)).toEqual([FP.a]);

    const attempts: [string, string, string, unknown?][] = [
      [other.token, 'GET', `/project/${project}/decisions`],
      [other.token, 'PUT', `/project/${project}/decisions/${FP.b}`, { decision: 'false_positive', reason: 'x' }],
      [other.token, 'DELETE', `/project/${project}/decisions/${FP.a}`],
      [other.token, 'GET', `/project/${project}/baseline`],
      [otherKey, 'GET', `/v1/projects/${project}/decisions`],
      [otherKey, 'PUT', `/v1/projects/${project}/decisions/${FP.b}`, { decision: 'false_positive', reason: 'x' }],
      [otherKey, 'DELETE', `/v1/projects/${project}/decisions/${FP.a}`],
      [otherKey, 'GET', `/v1/projects/${project}/baseline`],
    ];
    for (const [token, method, path, body] of attempts) expect((await call(token, method, path, body)).json, `${method} ${path}`).toEqual({ detail: 'Project not found' });
    expect((await call(owner.token, 'GET', `/project/${project}/decisions`)).json).toMatchObject([{ fingerprint: FP.a, decision: 'accepted_risk' }]);

    expect((await call(key, 'DELETE', `/v1/projects/${project}/decisions/${FP.a}`)).status).toBe(204);
    expect((await call(owner.token, 'GET', `/project/${project}/baseline`)).json).toEqual([]);
  });

  it("shows a project's last scan with today's decisions: decided out of the numbers at once, back when reopened", async () => {
    const user = await signUp(server.origin, 'triage-view');
    const project = await projectOf(user.token);
    const sample = loadSampleResult();
    const client = new pg.Client({ connectionString: server.databaseUrl });
    await client.connect();
    try {
      await client.query(
        `insert into scans (project_id, user_id, workspace_id, url, num_pages, state, result, score, grade, counts, finished_at)
         values ($1, $2, $2, $3, 1, 'completed', $4, $5, $6, $7, now())`,
        [project, user.id, sample.target.url, JSON.stringify(sample), sample.score, sample.grade, JSON.stringify(sample.counts)],
      );
    } finally {
      await client.end();
    }
    const critical = sample.findings.find((f) => f.severity === 'critical')!;
    const view = async () => ((await call(user.token, 'GET', `/project/${project}/scan`)).json as ProjectScanResponse).result!;
    expect((await view()).counts.critical).toBe(2);
    await call(user.token, 'PUT', `/project/${project}/decisions/${critical.fingerprint}`, { decision: 'false_positive', reason: 'A revoked key' });
    const decided = await view();
    expect(decided.counts.critical).toBe(1);
    // The latest scan's own figures follow at once: the project's header and card show them.
    const summary = async () => ((await call(user.token, 'GET', `/project/${project}`)).json as { latest_scan: { counts: { critical: number }; grade: string } }).latest_scan;
    expect(await summary()).toMatchObject({ counts: { critical: 1 }, grade: decided.grade });
    expect(decided.findings.map((f) => f.fingerprint)).not.toContain(critical.fingerprint);
    expect(decided.suppressed).toMatchObject([{ fingerprint: critical.fingerprint, suppression: { decision: 'false_positive', reason: 'A revoked key' } }]);
    await call(user.token, 'DELETE', `/project/${project}/decisions/${critical.fingerprint}`);
    expect((await view()).counts.critical).toBe(2);
    expect((await summary()).counts.critical).toBe(2);
  });
});
