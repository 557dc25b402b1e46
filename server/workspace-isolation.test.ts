import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORKSPACE_HEADER, WORKSPACE_TEXTS } from '../common/workspaces';
import { embeddedDatabaseUrl } from './mcp/testing';
import { rawRequest, signUp, type RawAnswer, type RawRequest } from './testing/http';
import { recordRoutes, routeKey, type RegisteredRoute } from './testing/routes';
import { startTestServer } from './testing/test-server';
import { addMember, removeMember, sharedWorkspace } from './testing/workspace-rows';

// A shared workspace W (owner O, member M, former member F) against every route of the app. A member acts on W's
// records with the X-Vibeeval-Workspace header (and finds none of them without it); once removed, F gets 404 for
// W's records with and without the header, lists without W's records, and a live stream that carries nothing of W;
// a stranger S gets what F gets. A route missing from TABLE fails the first test. server/cross-user.test.ts keeps
// the user-against-user table (personal workspaces); this file keeps the member rows apart from it because every
// entry here needs three callers and a workspace made in the database, and B's routes join it once scope-b lands.

type Caller = { token: string; id: string; email: string };
interface Shared {
  w: string;
  projectId: string;
  /** A project of W that the member deletes. */
  spareId: string;
  scanId: string;
  reportId: string;
  buildId: string;
}

type Entry =
  /** Takes one of W's ids: M (with the header) gets `member` (200 by default); F and S get 404 with and without it. */
  | { kind: 'record'; request: (s: Shared, token: string) => RawRequest; member?: number }
  /** A list of the workspace's records: M's (with the header) has W's ids; anyone's else has none. */
  | { kind: 'list'; path: string; ids: (s: Shared) => string[] }
  /** Checked on its own (creations, the live stream, the plan). */
  | { kind: 'check'; check: (s: Shared) => Promise<void> }
  /** A route of engineer B's domains (scenarios, API keys, public API, MCP, webhooks): runs here once scope-b is merged. */
  | { kind: 'scope-b' }
  /** Holds no workspace's records (the account's own, public, or opened by a signed link). */
  | { kind: 'no workspace data'; reason: string };

const MARKER = 'workspace-w-instruction-3d9a';
let server: Awaited<ReturnType<typeof startTestServer>>;
let site: http.Server;
let siteUrl: string;
let pool: pg.Pool;
let routes: RegisteredRoute[];
let owner: Caller;
let member: Caller;
let former: Caller;
let stranger: Caller;
let shared: Shared;
const streams = { m: '', f: '', s: '' };
const ended = { m: false, f: false, s: false };
/** Where F's stream stood when F was removed, and what F's ticket from before the removal opened afterwards. */
let formerRemovedAt = 0;
let formerOldTicketStatus = 0;

const call = (request: RawRequest) => rawRequest(server.origin, request);
const json = (token: string, method: string, path: string, body?: unknown, workspace?: string): RawRequest => {
  const length = body === undefined ? undefined : Buffer.byteLength(JSON.stringify(body));
  return {
    method,
    path,
    headers: {
      authorization: `Bearer ${token}`,
      ...(workspace ? { [WORKSPACE_HEADER]: workspace } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(length) }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  };
};
/** The request with the workspace header naming W. */
const inW = (request: RawRequest): RawRequest => ({ ...request, headers: { ...request.headers, [WORKSPACE_HEADER]: shared.w } });
const siteTokenOf = async (projectId: string) => ((await call(inW(json(owner.token, 'GET', `/project/${projectId}`)))).json as { site_token: string }).site_token;
const siteReport = (siteToken: string, hash: string): RawRequest => ({
  method: 'POST',
  path: '/continuous-testing',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ site_token: siteToken, hash, hostname: '127.0.0.1' }),
});

function expectNothingOfW(answer: RawAnswer, label: string) {
  for (const secret of [shared.projectId, shared.scanId, shared.reportId, shared.buildId, MARKER]) {
    expect(answer.text.includes(secret), `${label} leaks ${secret}: ${answer.text.slice(0, 200)}`).toBe(false);
  }
}

const TABLE: Record<string, Entry> = {
  'GET /project/:id': { kind: 'record', request: (s, t) => json(t, 'GET', `/project/${s.projectId}`) },
  'PATCH /project/:id': { kind: 'record', request: (s, t) => json(t, 'PATCH', `/project/${s.projectId}`, { num_pages: 2 }) },
  'DELETE /project/:id': { kind: 'record', request: (s, t) => json(t, 'DELETE', `/project/${s.spareId}`) },
  'PATCH /project_test/:id': { kind: 'record', request: (s, t) => json(t, 'PATCH', `/project_test/${s.projectId}`) },
  'GET /project/:id/scan': { kind: 'record', request: (s, t) => json(t, 'GET', `/project/${s.projectId}/scan`) },
  'GET /events/project/:id': { kind: 'record', request: (s, t) => json(t, 'GET', `/events/project/${s.projectId}`) },
  'POST /reports': { kind: 'record', member: 202, request: (s, t) => json(t, 'POST', '/reports', { project_id: s.projectId, type: 'analytics' }) },
  'GET /reports/:id': { kind: 'record', request: (s, t) => json(t, 'GET', `/reports/${s.reportId}`) },
  'POST /project/:id/site_token': { kind: 'record', request: (s, t) => json(t, 'POST', `/project/${s.projectId}/site_token`) },
  'GET /project/:id/monitoring': { kind: 'record', request: (s, t) => json(t, 'GET', `/project/${s.projectId}/monitoring`) },
  'PUT /project/:id/monitoring': { kind: 'record', request: (s, t) => json(t, 'PUT', `/project/${s.projectId}/monitoring`, { frequency: 'weekly', hour: 3, weekday: 0, timezone: 'UTC' }) },
  'GET /projects': { kind: 'list', path: '/projects', ids: (s) => [s.projectId] },
  'GET /events/recent': { kind: 'list', path: '/events/recent?limit=500', ids: (s) => [s.scanId] },
  'GET /report_links/recent': { kind: 'list', path: '/report_links/recent', ids: (s) => [s.reportId] },
  'GET /continuous_builds': { kind: 'list', path: '/continuous_builds', ids: (s) => [s.buildId] },
  'POST /project': {
    kind: 'check',
    check: async (s) => {
      // M's project in W is W's: the owner finds it there, and M's personal workspace does not hold it.
      const made = await call(inW(json(member.token, 'POST', '/project', { url: siteUrl })));
      expect(made.status, made.text).toBe(201);
      const id = (made.json as { id: string }).id;
      expect((await call(inW(json(owner.token, 'GET', `/project/${id}`)))).status).toBe(200);
      expect((await call(json(member.token, 'GET', `/project/${id}`))).status).toBe(404);
      for (const caller of [former, stranger]) {
        const refused = await call(inW(json(caller.token, 'POST', '/project', { url: siteUrl })));
        expect(refused.status).toBe(404);
        expect(refused.json).toEqual({ detail: WORKSPACE_TEXTS.notFound });
        // Without the header the caller's project is the caller's own, not W's.
        const own = (await call(json(caller.token, 'POST', '/project', { url: siteUrl }))).json as { id: string };
        expect((await call(inW(json(owner.token, 'GET', `/project/${own.id}`)))).status).toBe(404);
      }
      expect(((await call(inW(json(owner.token, 'GET', '/projects')))).json as { id: string }[]).map((p) => p.id)).toEqual(expect.arrayContaining([id, s.projectId]));
    },
  },
  'POST /live/ticket': {
    kind: 'check',
    check: async (s) => {
      const ticket = ((await call(inW(json(member.token, 'POST', '/live/ticket')))).json as { ticket: string }).ticket.split('.');
      expect(ticket.slice(0, 2)).toEqual([s.w, member.id]);
      for (const caller of [former, stranger]) expect((await call(inW(json(caller.token, 'POST', '/live/ticket')))).status).toBe(404);
    },
  },
  'GET /live': {
    kind: 'check',
    check: async (s) => {
      // Before the removal F, a member then, saw W's project; S never did.
      expect(streams.f.slice(0, formerRemovedAt)).toContain(s.projectId);
      expect(streams.s).not.toContain(s.projectId);
      expect(formerOldTicketStatus).toBe(404);
      // A report made in W after the removal reaches M's stream and not F's, whose stream has ended.
      const report = (await call(inW(json(owner.token, 'POST', '/reports', { project_id: s.projectId, type: 'analytics' })))).json as { id: string };
      await waitFor(async () => (streams.m.includes(report.id) ? true : undefined), 30_000);
      await waitFor(async () => (ended.f ? true : undefined), 10_000);
      const after = streams.f.slice(formerRemovedAt);
      for (const secret of [report.id, s.projectId, s.scanId]) expect(after).not.toContain(secret);
      expect(streams.s).not.toContain(report.id);
    },
  },
  'POST /continuous-testing': {
    kind: 'check',
    check: async (s) => {
      // A site's report counts for W's monthly usage, which members see and nobody else does.
      const usage = async (token: string, workspace?: string) => call(json(token, 'GET', `/project/${s.projectId}/monitoring`, undefined, workspace));
      const before = ((await usage(member.token, s.w)).json as { usage: { used: number } }).usage.used;
      expect((await call(siteReport(await siteTokenOf(s.projectId), 'c0ffee77'))).status).toBe(202);
      expect(((await usage(owner.token, s.w)).json as { usage: { used: number } }).usage.used).toBe(before + 1);
      for (const caller of [former, stranger]) for (const workspace of [s.w, undefined]) expect((await usage(caller.token, workspace)).status).toBe(404);
    },
  },
  'GET /plan_limits': {
    kind: 'check',
    check: async (s) => {
      // W's plan is its owner's: Pro once O subscribes, whatever the member's own account has (the server's default).
      expect((await call(json(owner.token, 'POST', '/subscription', { price_id: 'price_local_pro_month' }))).status).toBe(201);
      expect((await call(json(member.token, 'GET', '/plan_limits', undefined, s.w))).json).toMatchObject({ tier: 'pro', limits: { seats: 5 } });
      expect((await call(json(member.token, 'GET', '/plan_limits'))).json).toMatchObject({ tier: 'enterprise' });
      for (const caller of [former, stranger]) expect((await call(json(caller.token, 'GET', '/plan_limits', undefined, s.w))).status).toBe(404);
    },
  },
  'GET /scenarios': { kind: 'scope-b' },
  'POST /scenarios': { kind: 'scope-b' },
  'POST /scenarios/generate': { kind: 'scope-b' },
  'POST /scenarios/run-all': { kind: 'scope-b' },
  'GET /scenario/:id': { kind: 'scope-b' },
  'DELETE /scenario/:id': { kind: 'scope-b' },
  'POST /scenario/:id/run': { kind: 'scope-b' },
  'GET /scenario-run/:id/screenshot': { kind: 'scope-b' },
  'GET /scenario-run/:id/trace': { kind: 'scope-b' },
  'GET /webhooks': { kind: 'scope-b' },
  'POST /webhook': { kind: 'scope-b' },
  'DELETE /webhook/:id': { kind: 'scope-b' },
  'GET /webhook/:id/deliveries': { kind: 'scope-b' },
  'POST /webhook/test': { kind: 'scope-b' },
  'GET /api_keys': { kind: 'scope-b' },
  'POST /api_keys': { kind: 'scope-b' },
  'DELETE /api_key/:id': { kind: 'scope-b' },
  'GET /api_usage': { kind: 'scope-b' },
  'GET /v1/scans': { kind: 'scope-b' },
  'POST /v1/scans': { kind: 'scope-b' },
  'GET /v1/scans/:id': { kind: 'scope-b' },
  'GET /v1/projects': { kind: 'scope-b' },
  'GET /v1/openapi.json': { kind: 'no workspace data', reason: 'the public API description' },
  'POST /mcp': { kind: 'scope-b' },
  'GET /mcp': { kind: 'scope-b' },
  'DELETE /mcp': { kind: 'scope-b' },
  'GET /reports/:id/view': { kind: 'no workspace data', reason: 'opened by a signed link, whoever holds it (server/cross-user.test.ts)' },
  'GET /reports/:id/export/:format': { kind: 'no workspace data', reason: 'opened by a signed link, whoever holds it' },
  'GET /report-preview': { kind: 'no workspace data', reason: 'opened by a signed link, whoever holds it' },
  'GET /v2/vibe-scanner/:id/report': { kind: 'no workspace data', reason: 'public quick scans belong to no workspace' },
  'POST /v2/vibe-scanner': { kind: 'no workspace data', reason: 'public quick scans belong to no workspace' },
  'GET /v2/live-browser/framing': { kind: 'no workspace data', reason: "a public check of another site's framing headers" },
  'GET /health': { kind: 'no workspace data', reason: 'server status' },
  'GET /app-config': { kind: 'no workspace data', reason: 'public client settings' },
  'OPTIONS *': { kind: 'no workspace data', reason: 'CORS preflight' },
  'GET /latest.js': { kind: 'no workspace data', reason: 'the monitoring script' },
  'OPTIONS /continuous-testing': { kind: 'no workspace data', reason: 'CORS preflight' },
  'GET /preferences': { kind: 'no workspace data', reason: "the account's own notification settings" },
  'PATCH /preferences': { kind: 'no workspace data', reason: "the account's own notification settings" },
  'GET /account/export': { kind: 'no workspace data', reason: "the account's own export (server/cross-user.test.ts)" },
  'DELETE /account': { kind: 'no workspace data', reason: "the account's own deletion" },
  'GET /plans': { kind: 'no workspace data', reason: 'the price list' },
  'GET /subscriptions': { kind: 'no workspace data', reason: "the account's own subscriptions (server/cross-user.test.ts)" },
  'POST /subscription': { kind: 'no workspace data', reason: "the account's own subscription" },
  'POST /subscription/:id/upgrade': { kind: 'no workspace data', reason: "the account's own subscription" },
  'POST /subscription/:id/cancel': { kind: 'no workspace data', reason: "the account's own subscription" },
  'POST /stripe/webhook': { kind: 'no workspace data', reason: 'authorised by Stripe-Signature' },
  'GET /auth/v1/user': { kind: 'no workspace data', reason: 'the caller' },
  'PUT /auth/v1/user': { kind: 'no workspace data', reason: 'the caller' },
  'POST /auth/v1/logout': { kind: 'no workspace data', reason: 'the caller' },
  'GET /auth/v1/settings': { kind: 'no workspace data', reason: 'public auth settings' },
  'POST /auth/v1/signup': { kind: 'no workspace data', reason: 'a new account' },
  'POST /auth/v1/token': { kind: 'no workspace data', reason: "the caller's own credentials" },
  'POST /auth/v1/recover': { kind: 'no workspace data', reason: 'the same answer for any address' },
  'GET /auth/v1/verify': { kind: 'no workspace data', reason: 'a one-time token from a mail' },
  'POST /auth/v1/verify': { kind: 'no workspace data', reason: 'a one-time token from a mail' },
  'GET /auth/v1/authorize': { kind: 'no workspace data', reason: 'starts a sign-in with Google' },
  'GET /auth/v1/callback': { kind: 'no workspace data', reason: "Google's return" },
};

async function openStream(token: string, into: keyof typeof streams, signal: AbortSignal, workspace?: string) {
  const { ticket } = (await call(json(token, 'POST', '/live/ticket', undefined, workspace))).json as { ticket: string };
  const response = await fetch(`${server.origin}/live?ticket=${ticket}`, { signal });
  expect(response.status).toBe(200);
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return void (ended[into] = true);
      streams[into] += Buffer.from(value).toString();
    }
  })().catch(() => void (ended[into] = true));
}

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 90_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const streamsOpen = new AbortController();

beforeAll(async () => {
  site = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>Shop</title><p>Shop</p>');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  const recorder = recordRoutes();
  try {
    server = await startTestServer({ VIBEEVAL_SCAN_RENDER: 'false', VIBEEVAL_SCAN_RATE: '0' });
  } finally {
    recorder.stop();
  }
  routes = recorder.routes();
  pool = new pg.Pool({ connectionString: await embeddedDatabaseUrl(server.dataDir), max: 2 });
  [owner, member, former, stranger] = [await signUp(server.origin, 'ws-owner'), await signUp(server.origin, 'ws-member'), await signUp(server.origin, 'ws-former'), await signUp(server.origin, 'ws-stranger')];
  const w = await sharedWorkspace(pool, owner.id);
  await addMember(pool, w, member.id);
  await addMember(pool, w, former.id);
  const asOwner = (method: string, path: string, body?: unknown) => call(json(owner.token, method, path, body, w));
  await openStream(member.token, 'm', streamsOpen.signal, w);
  await openStream(former.token, 'f', streamsOpen.signal, w);
  await openStream(stranger.token, 's', streamsOpen.signal);

  const projectId = ((await asOwner('POST', '/project', { url: siteUrl, instruction_text: MARKER })).json as { id: string }).id;
  const spareId = ((await asOwner('POST', '/project', { url: siteUrl })).json as { id: string }).id;
  const started = (await asOwner('POST', '/reports', { project_id: projectId, type: 'security' })).json as { id: string };
  const report = await waitFor(async () => {
    const status = (await asOwner('GET', `/reports/${started.id}`)).json as { state: string };
    return status.state === 'completed' || status.state === 'failed' ? status : undefined;
  });
  expect(report.state).toBe('completed');
  const scanId = ((await asOwner('GET', `/project/${projectId}/scan`)).json as { scan: { id: string } }).scan.id;
  const siteToken = ((await asOwner('GET', `/project/${projectId}`)).json as { site_token: string }).site_token;
  const buildId = ((await call(siteReport(siteToken, 'c0ffee01'))).json as { build_id: string }).build_id;
  shared = { w, projectId, spareId, scanId, reportId: started.id, buildId };
  await waitFor(async () => (streams.f.includes(projectId) ? true : undefined), 10_000);

  // F leaves W: a ticket F got just before opens nothing after, once the membership cache (1 s) has let go.
  const { ticket } = (await call(json(former.token, 'POST', '/live/ticket', undefined, w))).json as { ticket: string };
  await removeMember(pool, w, former.id);
  await new Promise((resolve) => setTimeout(resolve, 1_200));
  formerRemovedAt = streams.f.length;
  formerOldTicketStatus = (await call({ method: 'GET', path: `/live?ticket=${ticket}` })).status;
}, 180_000);

afterAll(async () => {
  streamsOpen.abort();
  await pool?.end();
  await server?.stop();
  await new Promise<void>((resolve) => site?.close(() => resolve()));
});

describe("a shared workspace's records", () => {
  it('has an entry in the workspace table for every route of the app', () => {
    const missing = routes.filter((route) => !route.file && !(routeKey(route) in TABLE)).map(routeKey);
    expect(missing, 'add these routes to TABLE in server/workspace-isolation.test.ts').toEqual([]);
    const gone = Object.keys(TABLE).filter((key) => !routes.some((route) => routeKey(route) === key));
    expect(gone, 'these TABLE entries match no route any more').toEqual([]);
  });

  it("answers a former member and a stranger 404 for W's records, with and without the header, and a member with W's", async () => {
    for (const [key, entry] of Object.entries(TABLE)) {
      if (entry.kind !== 'record') continue;
      for (const caller of [former, stranger]) {
        for (const request of [inW(entry.request(shared, caller.token)), entry.request(shared, caller.token)]) {
          const answer = await call(request);
          expect(answer.status, `${key} for ${caller === former ? 'the former member' : 'a stranger'}`).toBe(404);
          expect((answer.json as { detail?: unknown }).detail, key).toEqual(expect.any(String));
          expectNothingOfW(answer, key);
        }
      }
      // Without the header a member acts in their personal workspace, where W's records are not.
      expect((await call(entry.request(shared, member.token))).status, `${key} for the member without the header`).toBe(404);
      const mine = await call(inW(entry.request(shared, member.token)));
      expect(mine.status, `${key} for the member: ${mine.text.slice(0, 200)}`).toBe(entry.member ?? 200);
    }
    // The member's changes are W's: the owner sees them.
    const project = (await call(inW(json(owner.token, 'GET', `/project/${shared.projectId}`)))).json as { num_pages: number; instruction_text: string };
    expect(project).toMatchObject({ num_pages: 2, instruction_text: MARKER });
    expect((await call(inW(json(owner.token, 'GET', `/project/${shared.spareId}`)))).status).toBe(404);
  });

  it("lists W's records to its members only", async () => {
    for (const [key, entry] of Object.entries(TABLE)) {
      if (entry.kind !== 'list') continue;
      const mine = await call(inW(json(member.token, 'GET', entry.path)));
      expect(mine.status, key).toBe(200);
      for (const id of entry.ids(shared)) expect(mine.text.includes(id), `${key} lists ${id} for a member`).toBe(true);
      expectNothingOfW(await call(json(member.token, 'GET', entry.path)), `${key} for the member without the header`);
      for (const caller of [former, stranger]) {
        const withHeader = await call(inW(json(caller.token, 'GET', entry.path)));
        expect(withHeader.status, key).toBe(404);
        expectNothingOfW(withHeader, key);
        const own = await call(json(caller.token, 'GET', entry.path));
        expect(own.status, key).toBe(200);
        expectNothingOfW(own, key);
      }
    }
  });

  it('keeps creations, the live stream, usage and the plan to the workspace', async () => {
    for (const [key, entry] of Object.entries(TABLE)) {
      if (entry.kind !== 'check') continue;
      try {
        await entry.check(shared);
      } catch (error) {
        throw new Error(`${key}: ${(error as Error).message}`);
      }
    }
  }, 120_000);
});
