import { mkdtemp, rm } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_PATTERN, API_KEY_TEXTS } from '../../common/api-keys';
import { cpuTimedAsync } from '../../engine/testing/cpu-time';
import { freshDatabase, type FreshDatabase } from '../testing/fresh-database';
import { scrubText, scrubUrl } from '../log-scrub';
import { callApi, rawRequest, signUp } from '../testing/http';
import { startTestServer } from '../testing/test-server';
import { addMember, MEMBERSHIP_SETTLE_MS, personalWorkspace, removeMember, sharedWorkspace } from '../testing/workspace-rows';
import { API_KEY_REFUSALS, tooManyWrongKeys } from './auth';

type Server = Awaited<ReturnType<typeof startTestServer>>;

// API keys end to end on two server instances sharing one PostgreSQL (as a team runs them): issued once, listed
// without the key, kept only as a hash, accepted on /v1 and nowhere else, revoked at once on both instances, and
// one daily allowance shared by both.

let root: string;
let database: FreshDatabase;
let db: pg.Pool;
let a: Server;
let b: Server;
/** Everything instance A logged, access lines included. */
let logged = '';
/** CPU time 300 refused keys and one valid key may cost this process (the server and its clients): 0.8-0.9 s measured. */
const FLOOD_CPU_MS = 3_000;

const issuedKeys: string[] = [];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'vibeeval-keys-'));
  database = await freshDatabase();
  // One data dir: both instances accept the same session tokens, as a team's servers share their secrets.
  const env = { DATABASE_URL: database.url, VIBEEVAL_DATA_DIR: join(root, 'data'), VIBEEVAL_SCAN_CONCURRENCY: '0', VIBEEVAL_SCENARIO_CONCURRENCY: '0' };
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logged += chunk.toString();
      done();
    },
  });
  a = await startTestServer({ ...env, LOG_LEVEL: 'info' }, { logDestination: destination });
  // B is a server that refuses private addresses (its scans, and the scans asked of its public API).
  b = await startTestServer({ ...env, VIBEEVAL_SCAN_ALLOW_PRIVATE: 'false' });
  db = new pg.Pool({ connectionString: database.url, max: 2 });
}, 120_000);

afterAll(async () => {
  await db?.end();
  await a?.stop();
  await b?.stop();
  await database?.drop();
  if (root) await rm(root, { recursive: true, force: true });
});

/** A request with `authorization` as given (a session's or a key's `Bearer …`, or a malformed one), the body as JSON. */
const call = (server: Server, method: string, path: string, authorization?: string, body?: unknown) =>
  callApi(server.origin, method, path, { body, headers: authorization ? { authorization } : {} });

async function issue(server: Server, token: string, name = 'CI') {
  const answer = await call(server, 'POST', '/api_keys', `Bearer ${token}`, { name });
  expect(answer.status, answer.text).toBe(201);
  issuedKeys.push((answer.json as { key: string }).key);
  return answer.json as { id: string; name: string; key: string; created_at: string };
}

describe('API keys', () => {
  it('are issued once, listed without the key, and kept in the database only as a hash', async () => {
    const user = await signUp(a.origin, 'keys');
    const created = await issue(a, user.token, '  Deploy pipeline  ');
    expect(created.key).toMatch(API_KEY_PATTERN);
    expect(created.name).toBe('Deploy pipeline');

    const list = await call(b, 'GET', '/api_keys', `Bearer ${user.token}`);
    expect(list.status).toBe(200);
    expect(list.json).toEqual([{ id: created.id, name: 'Deploy pipeline', last_four: created.key.slice(-4), created_at: created.created_at, last_used: null }]);
    expect(list.text).not.toContain(created.key.slice(8));

    // No column of the row holds the key or its random part.
    const { rows } = await db.query<{ key_hash: string }>('select * from api_keys where id = $1', [created.id]);
    const stored = JSON.stringify(rows[0]);
    expect(stored).not.toContain(created.key.slice(8, 30));
    expect(rows[0]!.key_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuse a blank name with the spec text', async () => {
    const user = await signUp(a.origin, 'keys-blank');
    for (const body of [{ name: '   ' }, { name: '' }, {}]) {
      const answer = await call(a, 'POST', '/api_keys', `Bearer ${user.token}`, body);
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual({ detail: API_KEY_TEXTS.nameRequired });
    }
  });

  it('act for their user on /v1, set last used, and are refused on the dashboard routes', async () => {
    const user = await signUp(a.origin, 'keys-use');
    const { key, id } = await issue(a, user.token);
    const used = await call(a, 'GET', '/v1/scans', `Bearer ${key}`);
    expect(used.status, used.text).toBe(200);
    expect(used.json).toEqual({ scans: [], total: 0, next_cursor: null });

    const onDashboard = await call(a, 'GET', '/projects', `Bearer ${key}`);
    expect(onDashboard.status).toBe(401);
    expect((onDashboard.json as { detail: string }).detail).toMatch(/public API \(\/v1\) only/);

    const session = await call(a, 'GET', '/v1/scans', `Bearer ${user.token}`);
    expect(session.status).toBe(401);
    expect(session.json).toEqual({ detail: API_KEY_REFUSALS.session });

    // Written in batches, at most about a second later.
    let lastUsed: Date | null = null;
    for (let i = 0; i < 40 && !lastUsed; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      lastUsed = ((await db.query('select last_used_at from api_keys where id = $1', [id])).rows[0] as { last_used_at: Date | null }).last_used_at;
    }
    expect(lastUsed).toBeInstanceOf(Date);
    expect(Date.now() - lastUsed!.getTime()).toBeLessThan(10_000);
    const listed = (await call(a, 'GET', '/api_keys', `Bearer ${user.token}`)).json as { last_used: string | null }[];
    expect(listed[0]!.last_used).toEqual(expect.any(String));
  });

  it('answer 401 with WWW-Authenticate for a missing, malformed or unknown key', async () => {
    for (const authorization of [undefined, 'Bearer nope', `Bearer vb_live_${'A'.repeat(26)}`, 'Basic abc']) {
      const response = await fetch(`${a.origin}/v1/scans`, { headers: authorization ? { authorization } : {} });
      expect(response.status, String(authorization)).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      expect(((await response.json()) as { detail: string }).detail.length).toBeGreaterThan(10);
    }
  });

  it('are revoked at once on every instance, including one that had the key in memory', async () => {
    const user = await signUp(a.origin, 'keys-revoke');
    const { key, id } = await issue(a, user.token);
    // Both instances have verified (and kept) the key.
    expect((await call(a, 'GET', '/v1/scans', `Bearer ${key}`)).status).toBe(200);
    expect((await call(b, 'GET', '/v1/scans', `Bearer ${key}`)).status).toBe(200);

    const other = await signUp(a.origin, 'keys-thief');
    expect((await call(b, 'DELETE', `/api_key/${id}`, `Bearer ${other.token}`)).status).toBe(404);
    expect((await call(b, 'GET', '/v1/scans', `Bearer ${key}`)).status).toBe(200);

    const revoked = await call(a, 'DELETE', `/api_key/${id}`, `Bearer ${user.token}`);
    expect(revoked.status).toBe(204);
    // This instance: the very next call. The other: as soon as the notice arrives (well under its 10 s memory).
    expect((await call(a, 'GET', '/v1/scans', `Bearer ${key}`)).status).toBe(401);
    const started = Date.now();
    let status = 200;
    while (status === 200 && Date.now() - started < 3_000) status = (await call(b, 'GET', '/v1/scans', `Bearer ${key}`)).status;
    expect(status).toBe(401);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect((await call(a, 'GET', '/api_keys', `Bearer ${user.token}`)).json).toEqual([]);
    expect((await call(a, 'DELETE', `/api_key/${id}`, `Bearer ${user.token}`)).status).toBe(404);
  });

  it('share one daily allowance across instances: 429 with Retry-After and RateLimit headers once it is spent', async () => {
    const user = await signUp(a.origin, 'keys-limit');
    const { key } = await issue(a, user.token);
    const first = await call(a, 'GET', '/v1/scans', `Bearer ${key}`);
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-policy')).toBe('"daily";q=100;w=86400');
    expect(first.headers.get('ratelimit')).toMatch(/^"daily";r=99;t=\d+$/);
    // 59 more on A, then 40 on B after A has written its count: 100 in all, the free plan's day.
    for (let i = 0; i < 59; i++) expect((await call(a, 'GET', '/v1/scans', `Bearer ${key}`)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 500));
    for (let i = 0; i < 40; i++) expect((await call(b, 'GET', '/v1/scans', `Bearer ${key}`)).status, `request ${61 + i}`).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 500));

    for (const server of [a, b]) {
      const refused = await call(server, 'GET', '/v1/scans', `Bearer ${key}`);
      expect(refused.status).toBe(429);
      const retryAfter = Number(refused.headers.get('retry-after'));
      const midnight = new Date();
      midnight.setUTCHours(24, 0, 0, 0);
      expect(Math.abs(retryAfter - (midnight.getTime() - Date.now()) / 1000)).toBeLessThan(5);
      expect(refused.headers.get('ratelimit')).toBe(`"daily";r=0;t=${retryAfter}`);
      expect(refused.headers.get('ratelimit-policy')).toBe('"daily";q=100;w=86400');
      expect((refused.json as { detail: string }).detail).toMatch(/^Daily API limit reached: your plan allows 100 requests per day/);
    }
    const { rows } = await db.query('select requests from api_usage where user_id = $1', [user.id]);
    expect(rows).toEqual([{ requests: 100 }]);
    const usage = (await call(b, 'GET', '/api_usage', `Bearer ${user.token}`)).json as Record<string, unknown>;
    expect(usage).toMatchObject({ plan: 'free', used_today: 100, limit: 100 });
    expect(new Date(usage.resets_at as string).getUTCHours()).toBe(0);
  });

  it('are capped per workspace with a clear answer', async () => {
    const user = await signUp(a.origin, 'keys-cap');
    await personalWorkspace(db, user.id, user.email);
    await db.query(
      "insert into api_keys (workspace_id, user_id, name, key_hash, last_four) select $1::uuid, $1::uuid, 'k' || n, md5($1::text || n::text) || md5(n::text), 'abcd' from generate_series(1, 50) n",
      [user.id],
    );
    const answer = await call(a, 'POST', '/api_keys', `Bearer ${user.token}`, { name: 'one more' });
    expect(answer.status).toBe(409);
    expect((answer.json as { detail: string }).detail).toMatch(/already has 50 API keys/);
    const page = await fetch(`${a.origin}/api_keys?limit=20`, { headers: { authorization: `Bearer ${user.token}` } });
    expect(((await page.json()) as unknown[]).length).toBe(20);
    expect(page.headers.get('x-next-cursor')).toEqual(expect.any(String));
  });
});

describe('API keys of a shared workspace', () => {
  const inWorkspace = (server: Server, method: string, path: string, token: string, workspaceId: string, body?: unknown) =>
    callApi(server.origin, method, path, { token, body, headers: { 'x-vibeeval-workspace': workspaceId } });
  const mcpInitialize = (server: Server, key: string) =>
    rawRequest(server.origin, {
      method: 'POST',
      path: '/mcp',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
    });

  /** An owner, a member, a former member and a stranger around a workspace W holding one scan. */
  async function team(label: string) {
    const [owner, member, former, stranger] = await Promise.all(['owner', 'member', 'former', 'stranger'].map((role) => signUp(a.origin, `${label}-${role}`)));
    const workspace = await sharedWorkspace(db, owner!.id, [member!.id, former!.id]);
    const project = (
      await db.query<{ id: string }>("insert into projects (user_id, workspace_id, url, num_pages) values ($1, $2, 'https://agency-client.example', 1) returning id", [
        owner!.id,
        workspace,
      ])
    ).rows[0]!;
    const scan = (
      await db.query<{ id: string }>("insert into scans (project_id, user_id, workspace_id, url, num_pages) values ($1, $2, $3, 'https://agency-client.example', 1) returning id", [
        project.id,
        owner!.id,
        workspace,
      ])
    ).rows[0]!;
    return { owner: owner!, member: member!, former: former!, stranger: stranger!, workspace, scanId: scan.id };
  }

  it("are the workspace's: every member lists and revokes them, a former member and a stranger do not see them", async () => {
    const t = await team('keys-ws');
    const made = await inWorkspace(a, 'POST', '/api_keys', t.member.token, t.workspace, { name: 'Agency CI' });
    expect(made.status, made.text).toBe(201);
    const { id, key } = made.json as { id: string; key: string };
    issuedKeys.push(key);
    expect((await db.query('select user_id, workspace_id from api_keys where id = $1', [id])).rows).toEqual([{ user_id: t.member.id, workspace_id: t.workspace }]);

    const ownersList = await inWorkspace(b, 'GET', '/api_keys', t.owner.token, t.workspace);
    expect((ownersList.json as { id: string }[]).map((k) => k.id)).toEqual([id]);
    // Not in anyone's personal list, the maker's included.
    for (const user of [t.owner, t.member, t.stranger]) expect((await call(a, 'GET', '/api_keys', `Bearer ${user.token}`)).json).toEqual([]);
    await removeMember(db, t.workspace, t.former.id);
    await new Promise((resolve) => setTimeout(resolve, MEMBERSHIP_SETTLE_MS));
    for (const outsider of [t.former, t.stranger]) {
      expect((await inWorkspace(a, 'GET', '/api_keys', outsider.token, t.workspace)).status).toBe(404);
      expect((await inWorkspace(a, 'DELETE', `/api_key/${id}`, outsider.token, t.workspace)).status).toBe(404);
      expect((await call(a, 'DELETE', `/api_key/${id}`, `Bearer ${outsider.token}`)).status).toBe(404);
    }
    // Its scans are the workspace's: the key reads W's scan, and nothing of the maker's personal workspace.
    const listed = await call(a, 'GET', '/v1/scans', `Bearer ${key}`);
    expect(listed.status, listed.text).toBe(200);
    expect((listed.json as { scans: { id: string }[]; total: number }).scans.map((scan) => scan.id)).toEqual([t.scanId]);
    expect((await call(b, 'GET', `/v1/scans/${t.scanId}`, `Bearer ${key}`)).status).toBe(200);
    const strangers = await issue(a, t.stranger.token, 'own');
    expect((await call(a, 'GET', `/v1/scans/${t.scanId}`, `Bearer ${strangers.key}`)).status).toBe(404);
    expect((await call(a, 'GET', '/v1/scans', `Bearer ${strangers.key}`)).json).toMatchObject({ scans: [], total: 0 });

    expect((await inWorkspace(a, 'DELETE', `/api_key/${id}`, t.owner.token, t.workspace)).status).toBe(204);
    expect((await call(a, 'GET', '/v1/scans', `Bearer ${key}`)).status).toBe(401);
  });

  it('stop working on /v1 and /mcp of every instance once their maker is removed from the workspace', async () => {
    const t = await team('keys-removed');
    const made = await inWorkspace(a, 'POST', '/api_keys', t.member.token, t.workspace, { name: 'Copied key' });
    const { key } = made.json as { key: string };
    issuedKeys.push(key);
    // Both instances verified (and kept) the key; /mcp takes it too.
    for (const server of [a, b]) expect((await call(server, 'GET', '/v1/scans', `Bearer ${key}`)).status).toBe(200);
    expect((await mcpInitialize(a, key)).status).toBe(200);

    await removeMember(db, t.workspace, t.member.id);
    await new Promise((resolve) => setTimeout(resolve, MEMBERSHIP_SETTLE_MS));
    for (const server of [a, b]) {
      const refused = await call(server, 'GET', '/v1/scans', `Bearer ${key}`);
      expect(refused.status).toBe(401);
      expect(refused.json).toEqual({ detail: API_KEY_REFUSALS.formerMember });
      expect((await mcpInitialize(server, key)).status).toBe(401);
    }
    // Let back in, the key acts again: it was never revoked, its maker was away.
    await addMember(db, t.workspace, t.member.id);
    await new Promise((resolve) => setTimeout(resolve, MEMBERSHIP_SETTLE_MS));
    expect((await call(b, 'GET', '/v1/scans', `Bearer ${key}`)).status).toBe(200);
  });

  it("share the workspace's daily allowance between the keys of its members", async () => {
    const t = await team('keys-count');
    const keys = [];
    for (const user of [t.owner, t.member]) {
      const made = await inWorkspace(a, 'POST', '/api_keys', user.token, t.workspace, { name: 'shared' });
      keys.push((made.json as { key: string }).key);
    }
    issuedKeys.push(...keys);
    for (let i = 0; i < 30; i++) expect((await call(i % 2 ? a : b, 'GET', '/v1/scans', `Bearer ${keys[i % 2]!}`)).status).toBe(200);
    const personal = await issue(a, t.member.token, 'personal');
    expect((await call(a, 'GET', '/v1/scans', `Bearer ${personal.key}`)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 600));
    const usage = (await inWorkspace(b, 'GET', '/api_usage', t.member.token, t.workspace)).json as Record<string, unknown>;
    expect(usage).toMatchObject({ used_today: 30, limit: 100 });
    const last = await call(a, 'GET', '/v1/scans', `Bearer ${keys[0]!}`);
    expect(last.headers.get('ratelimit')).toMatch(/^"daily";r=69;t=\d+$/);
    const counted = (await db.query<{ requests: number }>('select requests from api_usage where workspace_id = $1', [t.workspace])).rows;
    expect(counted.length).toBe(1);
    expect(counted[0]!.requests).toBeGreaterThanOrEqual(30);
    expect(((await call(a, 'GET', '/api_usage', `Bearer ${t.member.token}`)).json as Record<string, unknown>).used_today).toBe(1);
    expect((await inWorkspace(a, 'GET', '/api_usage', t.stranger.token, t.workspace)).status).toBe(404);
  });
});

describe('wrong API keys from one client', () => {
  let c: Server;
  beforeAll(async () => {
    // Behind a proxy the client is X-Forwarded-For's address: each test client has its own.
    c = await startTestServer({
      DATABASE_URL: database.url,
      VIBEEVAL_DATA_DIR: join(root, 'data'),
      VIBEEVAL_SCAN_CONCURRENCY: '0',
      VIBEEVAL_SCENARIO_CONCURRENCY: '0',
      VIBEEVAL_TRUST_PROXY: '1',
      API_KEY_FAILURES_MAX_PER_IP: '10',
      API_KEY_FAILURES_WINDOW_SECONDS: '60',
    });
  }, 60_000);
  afterAll(async () => {
    await c?.stop();
  });

  const from = (client: string, key: string) => fetch(`${c.origin}/v1/scans`, { headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': client } });
  const wrongKey = (i: number) => `vb_live_${String(i).padStart(26, 'W')}`;

  it('are answered 429 with Retry-After past the limit, without slowing the valid keys of other clients', async () => {
    const user = await signUp(c.origin, 'keys-flood');
    const { key } = await issue(c, user.token, 'flood');

    // Within the limit every wrong key is a plain 401.
    for (let i = 0; i < 10; i++) expect((await from('198.51.100.1', wrongKey(i))).status).toBe(401);
    const over = await from('198.51.100.1', wrongKey(10));
    expect(over.status).toBe(429);
    const retryAfter = Number(over.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(((await over.json()) as { detail: string }).detail).toBe(tooManyWrongKeys(retryAfter));
    // While blocked, a right key is no different from a wrong one: nothing tells them apart.
    expect((await from('198.51.100.1', key)).status).toBe(429);

    // 300 wrong keys at once from another client: at most the limit get 401, the rest 429; meanwhile a third
    // client's valid key is answered as usual, and quickly.
    // Quickly: held on the CPU time this process (the server and its clients) spends meanwhile, which a busy machine
    // does not stretch as it stretches wall time. A flood that cost a key check each (a hash, a query) would show.
    const { result, ms: cpuMs } = await cpuTimedAsync(async () => {
      const flood = Array.from({ length: 300 }, (_, i) => from('198.51.100.2', wrongKey(100 + i)).then((r) => r.status));
      const valid = await from('198.51.100.3', key);
      return { valid, statuses: await Promise.all(flood) };
    });
    const { valid, statuses } = result;
    expect(valid.status).toBe(200);
    expect(cpuMs).toBeLessThan(FLOOD_CPU_MS);
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(290);
    expect(statuses.every((status) => status === 401 || status === 429)).toBe(true);
  });
});

describe('scans asked through the public API', () => {
  it('obey the address policy of the server: a private address is refused with its reason', async () => {
    const user = await signUp(b.origin, 'keys-private');
    const { key } = await issue(b, user.token);
    const refused = await call(b, 'POST', '/v1/scans', `Bearer ${key}`, { url: 'http://127.0.0.1:8080/admin' });
    expect(refused.status).toBe(400);
    expect((refused.json as { detail: string }).detail).toMatch(/private|loopback|local/i);
    expect((await call(b, 'GET', '/v1/scans', `Bearer ${key}`)).json).toMatchObject({ total: 0 });
    expect((await call(b, 'GET', '/projects', `Bearer ${user.token}`)).json).toEqual([]);
  });
});

describe('keys in logs', () => {
  it('never reach the server log, wherever the client puts them', async () => {
    const key = issuedKeys[0]!;
    await call(a, 'GET', `/v1/scans/${key}`, `Bearer ${key}`);
    await call(a, 'GET', `/v1/scans?api_key=${key}`, `Bearer ${key}`);
    await call(a, 'GET', '/projects', `Bearer ${key}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(logged).toContain('/v1/scans/vb_live_[redacted]');
    expect(issuedKeys.length).toBeGreaterThan(3);
    for (const issued of issuedKeys) expect(logged.includes(issued.slice(8)), 'a key in the log').toBe(false);
  });

  it('are blanked in any text and URL', () => {
    const key = `vb_live_${'aB3'.repeat(8)}xy`;
    expect(scrubText(`failed for ${key} today`)).toBe('failed for vb_live_[redacted] today');
    expect(scrubText(`authorization: Bearer ${key}`)).not.toContain(key.slice(8));
    expect(scrubText('secret whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw= end')).toBe('secret whsec_[redacted] end');
    expect(scrubUrl(`/v1/scans/${key}?limit=1`)).toBe('/v1/scans/vb_live_[redacted]?limit=1');
    expect(scrubUrl(`/v1/scans?api_key=${key}`)).not.toContain(key.slice(8));
  });
});
