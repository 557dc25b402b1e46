import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORKSPACE_HEADER, WORKSPACE_TEXTS } from '../common/workspaces';
import { insertApiKey } from './mcp/testing';
import { apiRequest, rawRequest, signUp, type RawAnswer, type RawRequest } from './testing/http';
import { recordRoutes, routeKey, type RegisteredRoute } from './testing/routes';
import { startTestServer } from './testing/test-server';
import { addMember, removeMember, sharedWorkspace } from './testing/workspace-rows';
import { until } from './testing/until';

// A shared workspace W (owner O, member M, former member F) against every route of the app. A member acts on W's
// records with the X-Vibeeval-Workspace header (and finds none of them without it); once removed, F gets 404 for
// W's records with and without the header, lists without W's records, and a live stream that carries nothing of W;
// a stranger S gets what F gets. W's API keys act on W's records; a key F made in W answers 401 once F is removed,
// and S's own key sees nothing of W. The workspace routes answer W to its members, keep the owner's actions to the
// owner (403 to M) and answer 404 to F and S. A route missing from TABLE fails the first test.
// server/cross-user.test.ts keeps the user-against-user table (personal workspaces); this file keeps the member rows
// apart from it because every entry here needs three callers and a workspace made in the database.

type Caller = { token: string; id: string; email: string };
interface Shared {
  w: string;
  projectId: string;
  /** A project of W that the member deletes. */
  spareId: string;
  scanId: string;
  /** A finding of W's project's scan (a check again of it runs against the local site). */
  findingFingerprint: string;
  /** The owner's finished check again of that finding. */
  recheckId: string;
  reportId: string;
  buildId: string;
  /** A scenario of W's project with a finished run (screenshot and trace), and one that the member deletes. */
  scenarioId: string;
  runId: string;
  spareScenarioId: string;
  /** A webhook of W at the local site, and one that the member deletes. */
  webhookId: string;
  spareWebhookId: string;
  /** An API key of W made by M (its id and the key), and one of the owner's that the member revokes. */
  apiKeyId: string;
  memberKey: string;
  spareKeyId: string;
  /** A key F made in W before the removal, and S's key in S's own workspace. */
  formerKey: string;
  strangerKey: string;
  /** A scan started through /v1 with W's key. */
  v1ScanId: string;
  /** An open invitation of W (to another address than any caller's) and its secret. */
  invitationId: string;
  invitationToken: string;
  /** A second workspace of O's with M as a member, for the member's leaving. */
  scratch: string;
  /** A domain W listed, and one that the member removes. */
  domainId: string;
  spareDomainId: string;
}

type Entry =
  /** Takes one of W's ids: M (with the header) gets `member` (200 by default); F and S get 404 with and without it. */
  | { kind: 'record'; request: (s: Shared, token: string) => RawRequest; member?: number }
  /** A list of the workspace's records: M's (with the header) has W's ids; anyone's else has none. */
  | { kind: 'list'; path: string; ids: (s: Shared) => string[] }
  /** Checked on its own (creations, the live stream, the plan). */
  | { kind: 'check'; check: (s: Shared) => Promise<void> }
  /** A route on W itself (its id in the path): M gets `member` with and without the header; F and S 'Workspace not found'. */
  | { kind: 'workspace'; request: (s: Shared, token: string) => RawRequest; member: number }
  /** Holds no workspace's records (the account's own, public, or opened by a signed link). */
  | { kind: 'no workspace data'; reason: string };

const MARKER = 'workspace-w-instruction-3d9a';
const SCENARIO_STEPS = [
  { type: 'goto', url: '/' },
  { type: 'expect_title', text: 'Shop' },
];
const INVITED = 'w-colleague@example.com';
/** Fingerprints the member decides on in W's project (dashboard and /v1), and the decision. */
const FINGERPRINT = 'b1b1b1b1b1b1b1b1';
const FINGERPRINT_V1 = 'c2c2c2c2c2c2c2c2';
const DECISION = { decision: 'false_positive', reason: 'checked by the member' };
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
const json = (token: string, method: string, path: string, body?: unknown, workspace?: string): RawRequest =>
  apiRequest(method, path, { token, body, headers: workspace ? { [WORKSPACE_HEADER]: workspace } : {} });
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
  const { projectId, scanId, reportId, buildId, scenarioId, runId, webhookId, apiKeyId, v1ScanId, recheckId } = shared;
  for (const secret of [projectId, scanId, reportId, buildId, scenarioId, runId, webhookId, apiKeyId, v1ScanId, recheckId, MARKER]) {
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
  // Triage: the member's decision on W's project is W's (set, listed, exported, then reopened).
  'GET /project/:id/decisions': { kind: 'record', request: (s, t) => json(t, 'GET', `/project/${s.projectId}/decisions`) },
  'PUT /project/:id/decisions/:fingerprint': { kind: 'record', request: (s, t) => json(t, 'PUT', `/project/${s.projectId}/decisions/${FINGERPRINT}`, DECISION) },
  'GET /project/:id/baseline': { kind: 'record', request: (s, t) => json(t, 'GET', `/project/${s.projectId}/baseline`) },
  'DELETE /project/:id/decisions/:fingerprint': { kind: 'record', member: 204, request: (s, t) => json(t, 'DELETE', `/project/${s.projectId}/decisions/${FINGERPRINT}`) },
  // Check again: the member's check of W's finding runs (and is recorded in W's project activity).
  'POST /project/:id/findings/:fingerprint/recheck': {
    kind: 'record',
    member: 202,
    request: (s, t) => json(t, 'POST', `/project/${s.projectId}/findings/${s.findingFingerprint}/recheck`),
  },
  'GET /project/:id/rechecks/:recheckId': { kind: 'record', request: (s, t) => json(t, 'GET', `/project/${s.projectId}/rechecks/${s.recheckId}`) },
  'GET /project/:id/rechecks': { kind: 'record', request: (s, t) => json(t, 'GET', `/project/${s.projectId}/rechecks`) },
  // Scan history: W's scans and what changed between two, for every member of W.
  'GET /project/:id/scans': { kind: 'record', request: (s, t) => json(t, 'GET', `/project/${s.projectId}/scans`) },
  'GET /project/:id/scans/diff': { kind: 'record', request: (s, t) => json(t, 'GET', `/project/${s.projectId}/scans/diff?to=${s.scanId}`) },
  'GET /project/:id/monitoring': { kind: 'record', request: (s, t) => json(t, 'GET', `/project/${s.projectId}/monitoring`) },
  'PUT /project/:id/monitoring': {
    kind: 'record',
    request: (s, t) => json(t, 'PUT', `/project/${s.projectId}/monitoring`, { frequency: 'weekly', hour: 3, weekday: 0, timezone: 'UTC' }),
  },
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
      // The member's scenario runs (the record entries) went to W's stream, not to F's or S's.
      expect(streams.m).toContain(s.scenarioId);
      for (const secret of [report.id, s.projectId, s.scanId, s.scenarioId]) expect(after).not.toContain(secret);
      for (const secret of [report.id, s.scenarioId, s.runId, s.v1ScanId]) expect(streams.s).not.toContain(secret);
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
      // What the plan counts is W's records in W, the member's own in their personal workspace: never the other's.
      const held = async (workspace: string) =>
        (
          await pool.query<{ projects: number; scenarios: number }>(
            `select (select count(*)::int from projects where workspace_id = $1) as projects, (select count(*)::int from scenarios where workspace_id = $1) as scenarios`,
            [workspace],
          )
        ).rows[0];
      const inW = await held(s.w);
      expect(inW!.projects).toBeGreaterThan(0);
      expect((await call(json(member.token, 'GET', '/plan_limits', undefined, s.w))).json).toMatchObject({ used: inW });
      expect((await call(json(member.token, 'GET', '/plan_limits'))).json).toMatchObject({ used: await held(member.id) });
      for (const caller of [former, stranger]) expect((await call(json(caller.token, 'GET', '/plan_limits', undefined, s.w))).status).toBe(404);
    },
  },
  'GET /scenarios': { kind: 'list', path: '/scenarios', ids: (s) => [s.scenarioId] },
  'POST /scenarios': { kind: 'record', member: 201, request: (s, t) => json(t, 'POST', '/scenarios', { project_id: s.projectId, website: siteUrl, actions: SCENARIO_STEPS }) },
  'POST /scenarios/generate': {
    kind: 'check',
    check: async (s) => {
      // Proposing scenarios opens a browser (server/scenarios/scenarios.test.ts); here only the refusals of W's project.
      for (const caller of [former, stranger]) {
        for (const workspace of [s.w, undefined]) {
          const refused = await call(json(caller.token, 'POST', '/scenarios/generate', { project_id: s.projectId }, workspace));
          expect(refused.status).toBe(404);
          expectNothingOfW(refused, 'POST /scenarios/generate');
        }
      }
      expect((await call(json(member.token, 'POST', '/scenarios/generate', { project_id: s.projectId }))).status).toBe(404);
    },
  },
  // Before Run All, which queues a run of this scenario too (one queued run per scenario).
  'POST /scenario/:id/run': { kind: 'record', member: 202, request: (s, t) => json(t, 'POST', `/scenario/${s.scenarioId}/run`) },
  'POST /scenarios/run-all': { kind: 'record', member: 202, request: (s, t) => json(t, 'POST', '/scenarios/run-all', { project_id: s.projectId }) },
  'GET /scenario/:id': { kind: 'record', request: (s, t) => json(t, 'GET', `/scenario/${s.scenarioId}`) },
  'DELETE /scenario/:id': { kind: 'record', member: 204, request: (s, t) => json(t, 'DELETE', `/scenario/${s.spareScenarioId}`) },
  'GET /scenario-run/:id/screenshot': { kind: 'record', request: (s, t) => json(t, 'GET', `/scenario-run/${s.runId}/screenshot`) },
  'GET /scenario-run/:id/trace': { kind: 'record', request: (s, t) => json(t, 'GET', `/scenario-run/${s.runId}/trace`) },
  'GET /webhooks': { kind: 'list', path: '/webhooks', ids: (s) => [s.webhookId] },
  'POST /webhook': {
    kind: 'check',
    check: async () => {
      // M's webhook is W's: the owner lists it there; F and S cannot add one to W.
      const made = await call(inW(json(member.token, 'POST', '/webhook', { url: `${siteUrl}m-hook` })));
      expect(made.status, made.text).toBe(201);
      const id = (made.json as { id: string }).id;
      expect((await call(inW(json(owner.token, 'GET', '/webhooks')))).text).toContain(id);
      expect((await call(json(member.token, 'GET', '/webhooks'))).text).not.toContain(id);
      for (const caller of [former, stranger]) expect((await call(inW(json(caller.token, 'POST', '/webhook', { url: `${siteUrl}x-hook` })))).status).toBe(404);
    },
  },
  'PATCH /webhook/:id': { kind: 'record', request: (s, t) => json(t, 'PATCH', `/webhook/${s.webhookId}`, { format: 'slack' }) },
  'DELETE /webhook/:id': { kind: 'record', member: 204, request: (s, t) => json(t, 'DELETE', `/webhook/${s.spareWebhookId}`) },
  'GET /webhook/:id/deliveries': { kind: 'record', request: (s, t) => json(t, 'GET', `/webhook/${s.webhookId}/deliveries`) },
  'POST /webhook/test': {
    kind: 'check',
    check: async () => {
      expect((await call(inW(json(member.token, 'POST', '/webhook/test', { url: `${siteUrl}m-test` })))).json).toEqual({ status_code: 200 });
      for (const caller of [former, stranger]) expect((await call(inW(json(caller.token, 'POST', '/webhook/test', { url: `${siteUrl}x-test` })))).status).toBe(404);
    },
  },
  'GET /domains': { kind: 'list', path: '/domains', ids: (s) => [s.domainId] },
  'POST /domains': {
    kind: 'check',
    check: async () => {
      // M's domain is W's: the owner lists it there, M's personal workspace does not; F and S cannot add one to W.
      const made = await call(inW(json(member.token, 'POST', '/domains', { domain: 'm-added.invalid' })));
      expect(made.status, made.text).toBe(201);
      const id = (made.json as { id: string }).id;
      expect((await call(inW(json(owner.token, 'GET', '/domains')))).text).toContain(id);
      expect((await call(json(member.token, 'GET', '/domains'))).text).not.toContain(id);
      for (const caller of [former, stranger]) expect((await call(inW(json(caller.token, 'POST', '/domains', { domain: 'x-added.invalid' })))).status).toBe(404);
    },
  },
  'POST /domains/:id/verify': { kind: 'record', request: (s, t) => json(t, 'POST', `/domains/${s.domainId}/verify`) },
  'DELETE /domains/:id': { kind: 'record', member: 204, request: (s, t) => json(t, 'DELETE', `/domains/${s.spareDomainId}`) },
  'GET /api_keys': { kind: 'list', path: '/api_keys', ids: (s) => [s.apiKeyId] },
  'POST /api_keys': {
    kind: 'check',
    check: async (s) => {
      // M's new key is W's: the owner lists it, and it reaches W's scan.
      const made = (await call(inW(json(member.token, 'POST', '/api_keys', { name: 'm two' })))).json as { id: string; key: string };
      expect((await call(inW(json(owner.token, 'GET', '/api_keys')))).text).toContain(made.id);
      expect((await call(json(made.key, 'GET', `/v1/scans/${s.v1ScanId}`))).status).toBe(200);
      for (const caller of [former, stranger]) expect((await call(inW(json(caller.token, 'POST', '/api_keys', { name: 'x' })))).status).toBe(404);
    },
  },
  'DELETE /api_key/:id': { kind: 'record', member: 204, request: (s, t) => json(t, 'DELETE', `/api_key/${s.spareKeyId}`) },
  'GET /api_usage': {
    kind: 'check',
    check: async (s) => {
      // Calls with W's key count for W, whose usage members see and nobody else does.
      const used = async (token: string) => ((await call(json(token, 'GET', '/api_usage', undefined, s.w))).json as { used_today: number }).used_today;
      const before = await used(owner.token);
      for (let i = 0; i < 2; i++) expect((await call(json(s.memberKey, 'GET', '/v1/projects'))).status).toBe(200);
      await waitFor(async () => ((await used(member.token)) >= before + 2 ? true : undefined), 10_000);
      for (const caller of [former, stranger]) expect((await call(json(caller.token, 'GET', '/api_usage', undefined, s.w))).status).toBe(404);
    },
  },
  'GET /v1/scans': { kind: 'check', check: (s) => publicApiCheck(s, '/v1/scans', s.v1ScanId) },
  'GET /v1/scans/:id': { kind: 'check', check: (s) => publicApiCheck(s, `/v1/scans/${s.v1ScanId}`, s.v1ScanId, 404) },
  'GET /v1/projects': { kind: 'check', check: (s) => publicApiCheck(s, '/v1/projects', s.projectId) },
  'PUT /v1/projects/:id/decisions/:fingerprint': { kind: 'check', check: (s) => triageV1Check(s) },
  'GET /v1/projects/:id/decisions': { kind: 'check', check: (s) => publicApiCheck(s, `/v1/projects/${s.projectId}/decisions`, '"next_cursor"', 404) },
  'GET /v1/projects/:id/baseline': { kind: 'check', check: (s) => publicApiCheck(s, `/v1/projects/${s.projectId}/baseline`, '[', 404) },
  'DELETE /v1/projects/:id/decisions/:fingerprint': { kind: 'check', check: (s) => triageV1Check(s) },
  'GET /v1/projects/:id/scans': { kind: 'check', check: (s) => publicApiCheck(s, `/v1/projects/${s.projectId}/scans`, s.scanId, 404) },
  'GET /v1/projects/:id/scans/diff': { kind: 'check', check: (s) => publicApiCheck(s, `/v1/projects/${s.projectId}/scans/diff?to=${s.scanId}`, s.scanId, 404) },
  'POST /v1/scans': {
    kind: 'check',
    check: async (s) => {
      // A scan started with W's key lands in W; with S's key it stays out of W; F's key is refused.
      const start = (key: string) => call(json(key, 'POST', '/v1/scans', { url: `${siteUrl}v1-check` }));
      const mine = await start(s.memberKey);
      expect(mine.status, mine.text).toBe(202);
      expect((await call(inW(json(owner.token, 'GET', `/project/${(mine.json as { project_id: string }).project_id}`)))).status).toBe(200);
      expect((await start(s.formerKey)).status).toBe(401);
      const theirs = await start(s.strangerKey);
      expect(theirs.status, theirs.text).toBe(202);
      expect((await call(inW(json(owner.token, 'GET', `/project/${(theirs.json as { project_id: string }).project_id}`)))).status).toBe(404);
      // By W's project id (a signed-in scan with its stored accounts): W's key reaches it, S's key gets 404, F's 401.
      const byId = (key: string) => call(json(key, 'POST', '/v1/scans', { projectId: s.projectId }));
      expect((await byId(s.strangerKey)).status).toBe(404);
      expect((await byId(s.formerKey)).status).toBe(401);
      expect((await byId(s.memberKey)).status).not.toBe(404);
    },
  },
  'GET /v1/openapi.json': { kind: 'no workspace data', reason: 'the public API description' },
  'POST /mcp': { kind: 'check', check: (s) => mcpInWorkspace(s) },
  'GET /mcp': { kind: 'check', check: (s) => mcpInWorkspace(s) },
  'DELETE /mcp': { kind: 'check', check: (s) => mcpInWorkspace(s) },
  'GET /workspaces': {
    kind: 'check',
    check: async (s) => {
      for (const workspace of [s.w, undefined]) expect((await call(json(member.token, 'GET', '/workspaces', undefined, workspace))).text).toContain(s.w);
      for (const caller of [former, stranger]) {
        expect((await call(inW(json(caller.token, 'GET', '/workspaces')))).status).toBe(404);
        const own = await call(json(caller.token, 'GET', '/workspaces'));
        expect(own.status).toBe(200);
        expect(own.text).not.toContain(s.w);
      }
    },
  },
  'POST /workspaces': {
    kind: 'check',
    check: async () => {
      // A workspace M creates (header or not) is M's own, not W's owner's.
      const made = await call(inW(json(member.token, 'POST', '/workspaces', { name: 'M team' })));
      expect(made.status, made.text).toBe(201);
      expect(made.json).toMatchObject({ role: 'owner', owner_id: member.id });
      expect((await call(json(owner.token, 'GET', '/workspaces'))).text).not.toContain((made.json as { id: string }).id);
      for (const caller of [former, stranger]) expect((await call(inW(json(caller.token, 'POST', '/workspaces', { name: 'X team' })))).status).toBe(404);
    },
  },
  'GET /workspaces/last': {
    kind: 'check',
    check: async (s) => {
      // M's choice of W is M's alone; F (who left W) and S (never in it) cannot choose W, and their own stays theirs.
      expect((await call(json(member.token, 'PUT', '/workspaces/last', { workspace_id: s.w }))).status).toBe(204);
      expect((await call(json(member.token, 'GET', '/workspaces/last'))).json).toEqual({ workspace_id: s.w });
      for (const caller of [former, stranger]) {
        expect((await call(json(caller.token, 'PUT', '/workspaces/last', { workspace_id: s.w }))).status).toBe(404);
        expect((await call(inW(json(caller.token, 'GET', '/workspaces/last')))).json).not.toEqual({ workspace_id: s.w });
      }
    },
  },
  'PUT /workspaces/last': { kind: 'workspace', member: 204, request: (s, t) => json(t, 'PUT', '/workspaces/last', { workspace_id: s.w }) },
  'GET /workspace/:id': { kind: 'workspace', member: 200, request: (s, t) => json(t, 'GET', `/workspace/${s.w}`) },
  'PATCH /workspace/:id': { kind: 'workspace', member: 403, request: (s, t) => json(t, 'PATCH', `/workspace/${s.w}`, { name: 'Taken over' }) },
  'DELETE /workspace/:id': { kind: 'workspace', member: 403, request: (s, t) => json(t, 'DELETE', `/workspace/${s.w}`) },
  'GET /workspace/:id/members': { kind: 'workspace', member: 200, request: (s, t) => json(t, 'GET', `/workspace/${s.w}/members`) },
  'DELETE /workspace/:id/members/:userId': { kind: 'workspace', member: 403, request: (s, t) => json(t, 'DELETE', `/workspace/${s.w}/members/${owner.id}`) },
  'POST /workspace/:id/transfer': { kind: 'workspace', member: 403, request: (s, t) => json(t, 'POST', `/workspace/${s.w}/transfer`, { user_id: member.id }) },
  'GET /workspace/:id/invitations': { kind: 'workspace', member: 403, request: (s, t) => json(t, 'GET', `/workspace/${s.w}/invitations`) },
  'POST /workspace/:id/invitations': {
    kind: 'workspace',
    member: 403,
    request: (s, t) => json(t, 'POST', `/workspace/${s.w}/invitations`, { email: 'another-colleague@example.com' }),
  },
  'DELETE /workspace/:id/invitations/:invitationId': { kind: 'workspace', member: 403, request: (s, t) => json(t, 'DELETE', `/workspace/${s.w}/invitations/${s.invitationId}`) },
  'POST /workspace/:id/leave': {
    kind: 'check',
    check: async (s) => {
      for (const caller of [former, stranger]) expect((await call(json(caller.token, 'POST', `/workspace/${s.w}/leave`))).json).toEqual({ detail: WORKSPACE_TEXTS.notFound });
      // M leaves the scratch workspace (not W, which the other entries need).
      expect((await call(json(member.token, 'POST', `/workspace/${s.scratch}/leave`))).status).toBe(204);
      expect((await call(json(member.token, 'GET', `/workspace/${s.scratch}`))).status).toBe(404);
      expect((await call(json(member.token, 'GET', `/workspace/${s.w}`))).status).toBe(200);
    },
  },
  'POST /invitations/preview': { kind: 'check', check: (s) => invitationOfW(s, '/invitations/preview') },
  'POST /invitations/accept': { kind: 'check', check: (s) => invitationOfW(s, '/invitations/accept') },
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

/** A public API read: W's key (made by M) sees `id`; the key F made in W answers 401; S's key sees nothing of W. */
/** Decisions on W's project through /v1: W's key sets and reopens one; F's key is refused, S's key finds no project. */
async function triageV1Check(s: Shared) {
  const path = `/v1/projects/${s.projectId}/decisions/${FINGERPRINT_V1}`;
  for (const [key, status] of [
    [s.formerKey, 401],
    [s.strangerKey, 404],
  ] as const) {
    for (const method of ['PUT', 'DELETE']) {
      const answer = await call(json(key, method, path, method === 'PUT' ? DECISION : undefined));
      expect(answer.status, `${method} ${path}`).toBe(status);
      expectNothingOfW(answer, `${method} ${path}`);
    }
  }
  const set = await call(json(s.memberKey, 'PUT', path, DECISION));
  expect(set.status, set.text.slice(0, 200)).toBe(200);
  expect((await call(inW(json(owner.token, 'GET', `/project/${s.projectId}/baseline`)))).text).toContain(FINGERPRINT_V1);
  expect((await call(json(s.memberKey, 'DELETE', path))).status).toBe(204);
}

async function publicApiCheck(s: Shared, path: string, id: string, strangerStatus = 200) {
  const mine = await call(json(s.memberKey, 'GET', path));
  expect(mine.status, mine.text.slice(0, 200)).toBe(200);
  expect(mine.text).toContain(id);
  const refused = await call(json(s.formerKey, 'GET', path));
  expect(refused.status).toBe(401);
  expectNothingOfW(refused, `${path} with the former member's key`);
  const theirs = await call(json(s.strangerKey, 'GET', path));
  expect(theirs.status).toBe(strangerStatus);
  expectNothingOfW(theirs, `${path} with the stranger's key`);
}

/**
 * The MCP endpoint: W's key reads W's scan and lists W's project; F's key is refused at the door; S's key finds
 * neither, and M's session answers 404 to S's key on POST, GET and DELETE (and still works for M afterwards).
 */
async function mcpInWorkspace(s: Shared) {
  const connect = async (key: string) => {
    const transport = new StreamableHTTPClientTransport(new URL(`${server.origin}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } });
    const client = new Client({ name: 'workspace-isolation', version: '1' });
    await client.connect(transport);
    return { client, sessionId: transport.sessionId! };
  };
  const [mine, theirs] = [await connect(s.memberKey), await connect(s.strangerKey)];
  try {
    expect((await mine.client.callTool({ name: 'get_scan_findings', arguments: { scan_id: s.scanId } })).isError).toBeFalsy();
    expect(JSON.stringify(await mine.client.callTool({ name: 'list_projects', arguments: {} }))).toContain(s.projectId);
    expect(await theirs.client.callTool({ name: 'get_scan_findings', arguments: { scan_id: s.scanId } })).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: 'Scan not found' }],
    });
    expect(JSON.stringify(await theirs.client.callTool({ name: 'list_projects', arguments: {} }))).not.toContain(s.projectId);
    const headers = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'former', version: '1' } },
    });
    expect((await call({ method: 'POST', path: '/mcp', headers: { ...headers, authorization: `Bearer ${s.formerKey}` }, body: initialize })).status).toBe(401);
    for (const method of ['POST', 'GET', 'DELETE']) {
      const answer = await call({
        method,
        path: '/mcp',
        headers: { ...headers, authorization: `Bearer ${s.strangerKey}`, 'mcp-session-id': mine.sessionId },
        body: method === 'POST' ? JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }) : undefined,
      });
      expect(answer.status, `${method} /mcp with M's session`).toBe(404);
    }
    expect((await mine.client.listTools()).tools.length).toBeGreaterThan(0);
  } finally {
    await Promise.all([mine.client.close(), theirs.client.close()]);
  }
}

/** W's invitation link, sent to another address: F and S can neither see what it joins nor accept it. */
async function invitationOfW(s: Shared, path: string) {
  for (const caller of [former, stranger]) {
    const refused = await call(json(caller.token, 'POST', path, { token: s.invitationToken }));
    expect(refused.status, refused.text).toBe(403);
    expect(refused.json).toEqual({ detail: WORKSPACE_TEXTS.invitationOtherEmail });
    expectNothingOfW(refused, path);
    expect((await call(json(caller.token, 'GET', `/workspace/${s.w}`))).status).toBe(404);
  }
  expect(((await call(json(owner.token, 'GET', `/workspace/${s.w}/invitations`))).json as { id: string }[]).map((i) => i.id)).toContain(s.invitationId);
}

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

const waitFor = <T>(probe: () => Promise<T | undefined>, timeoutMs = 90_000) => until('the probe', probe, timeoutMs, 200);

/** W's scenarios (one run to the end), webhooks, keys, a /v1 scan, an open invitation, and a scratch workspace. */
async function seedScopeOfW(w: string, projectId: string) {
  const asOwner = (method: string, path: string, body?: unknown) => call(json(owner.token, method, path, body, w));
  const idOf = async (answer: Promise<RawAnswer>) => ((await answer).json as { id: string }).id;
  const scenarioId = await idOf(asOwner('POST', '/scenarios', { project_id: projectId, website: siteUrl, actions: SCENARIO_STEPS }));
  const spareScenarioId = await idOf(asOwner('POST', '/scenarios', { project_id: projectId, website: siteUrl, actions: SCENARIO_STEPS }));
  const { run_id: runId } = (await asOwner('POST', `/scenario/${scenarioId}/run`)).json as { run_id: string };
  const run = await waitFor(async () => {
    const detail = (await asOwner('GET', `/scenario/${scenarioId}`)).json as { runs: { status: string; screenshot_url: string | null }[] };
    return detail.runs[0]?.status === 'passed' || detail.runs[0]?.status === 'failed' ? detail.runs[0] : undefined;
  });
  expect(run.status).toBe('passed');
  expect(run.screenshot_url).toMatch(/^\/scenario-run\//);
  const webhookId = await idOf(asOwner('POST', '/webhook', { url: `${siteUrl}w-hook` }));
  const spareWebhookId = await idOf(asOwner('POST', '/webhook', { url: `${siteUrl}w-spare` }));
  // Under .invalid: the member's Verify checks both proofs and fails at once, on every machine.
  const domainId = await idOf(asOwner('POST', '/domains', { domain: 'w-site.invalid' }));
  const spareDomainId = await idOf(asOwner('POST', '/domains', { domain: 'w-spare.invalid' }));
  const made = (await call(json(member.token, 'POST', '/api_keys', { name: 'm' }, w))).json as { id: string; key: string };
  const spareKeyId = await idOf(asOwner('POST', '/api_keys', { name: 'spare' }));
  const database = server.databaseUrl;
  const [formerKey, strangerKey] = [await insertApiKey(database, former.id, 'former', w), await insertApiKey(database, stranger.id)];
  const v1 = await call(json(made.key, 'POST', '/v1/scans', { url: `${siteUrl}v1` }));
  expect(v1.status, v1.text).toBe(202);
  const invitationToken = `vbi_${randomBytes(32).toString('base64url')}`;
  const { rows } = await pool.query<{ id: string }>(
    `insert into workspace_invitations (workspace_id, email, invited_by, token_hash, expires_at) values ($1, $2, $3, $4, now() + interval '1 hour') returning id`,
    [w, INVITED, owner.id, createHash('sha256').update(invitationToken).digest('hex')],
  );
  const scratch = await sharedWorkspace(pool, owner.id, [member.id], 'Scratch');
  const v1ScanId = (v1.json as { id: string }).id;
  return {
    scenarioId,
    runId,
    spareScenarioId,
    webhookId,
    spareWebhookId,
    apiKeyId: made.id,
    memberKey: made.key,
    spareKeyId,
    formerKey,
    strangerKey,
    v1ScanId,
    invitationId: rows[0]!.id,
    invitationToken,
    scratch,
    domainId,
    spareDomainId,
  };
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
  pool = new pg.Pool({ connectionString: server.databaseUrl, max: 2 });
  [owner, member, former, stranger] = [
    await signUp(server.origin, 'ws-owner'),
    await signUp(server.origin, 'ws-member'),
    await signUp(server.origin, 'ws-former'),
    await signUp(server.origin, 'ws-stranger'),
  ];
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
  const scanView = (await asOwner('GET', `/project/${projectId}/scan`)).json as { scan: { id: string }; result: { findings: Array<{ fingerprint: string }> } };
  const scanId = scanView.scan.id;
  const findingFingerprint = scanView.result.findings[0]!.fingerprint;
  const siteToken = ((await asOwner('GET', `/project/${projectId}`)).json as { site_token: string }).site_token;
  const buildId = ((await call(siteReport(siteToken, 'c0ffee01'))).json as { build_id: string }).build_id;
  const { id: recheckId } = (await asOwner('POST', `/project/${projectId}/findings/${findingFingerprint}/recheck`)).json as { id: string };
  await waitFor(async () => (((await asOwner('GET', `/project/${projectId}/rechecks/${recheckId}`)).json as { state: string }).state === 'completed' ? true : undefined));
  shared = { w, projectId, spareId, scanId, findingFingerprint, recheckId, reportId: started.id, buildId, ...(await seedScopeOfW(w, projectId)) };
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

  it("answers W's workspace routes to its members, keeps the owner's actions to the owner, and 404 to anyone else", async () => {
    for (const [key, entry] of Object.entries(TABLE)) {
      if (entry.kind !== 'workspace') continue;
      for (const caller of [former, stranger]) {
        for (const request of [inW(entry.request(shared, caller.token)), entry.request(shared, caller.token)]) {
          const answer = await call(request);
          expect(answer.status, `${key} for ${caller === former ? 'the former member' : 'a stranger'}`).toBe(404);
          expect(answer.json, key).toEqual({ detail: WORKSPACE_TEXTS.notFound });
          expectNothingOfW(answer, key);
        }
      }
      // The path names W: the member's answer is the same with the header and without it.
      for (const request of [inW(entry.request(shared, member.token)), entry.request(shared, member.token)]) {
        const mine = await call(request);
        expect(mine.status, `${key} for the member: ${mine.text.slice(0, 200)}`).toBe(entry.member);
        if (entry.member === 403) expect(mine.json, key).toEqual({ detail: WORKSPACE_TEXTS.ownerOnly });
      }
    }
    // None of the member's attempts changed W: its name, owner, members and invitation are as they were.
    expect((await call(json(owner.token, 'GET', `/workspace/${shared.w}`))).json).toMatchObject({ name: 'Agency', owner_id: owner.id, role: 'owner' });
    const members = ((await call(json(owner.token, 'GET', `/workspace/${shared.w}/members`))).json as { user_id: string }[]).map((m) => m.user_id);
    expect(members.sort()).toEqual([owner.id, member.id].sort());
    const invitations = (await call(json(owner.token, 'GET', `/workspace/${shared.w}/invitations`))).json as { id: string; email: string }[];
    expect(invitations.map((i) => i.email)).toEqual([INVITED]);
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
