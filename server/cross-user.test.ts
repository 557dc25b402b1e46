import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRequest, rawRequest, signUp, type RawAnswer, type RawRequest } from './testing/http';
import { recordRoutes, routeKey, type RegisteredRoute } from './testing/routes';
import { startTestServer } from './testing/test-server';
import { insertApiKey } from './mcp/testing';
import { until } from './testing/until';

// User B against user A's records, on every route of the real app: each route that takes an id answers B with a
// 404 (not a 403, not data) for A's records and changes nothing of A's; lists never show A's records; the live
// stream never carries A's messages to B. A route missing from TABLE fails the first test.

interface Owner {
  token: string;
  id: string;
  email: string;
  projectId: string;
  /** Deleted by nobody: B's DELETE must leave it. */
  reportId: string;
  scanId: string;
  reportUrl: string;
  /** A scenario with a finished run (screenshot and trace stored). */
  scenarioId: string;
  runId: string;
  /** An API key of A's (public API) and its id. */
  apiKey: string;
  apiKeyId: string;
  /** A webhook at the local site, which received the deliveries of A's scan and report. */
  webhookId: string;
  /** A's active Enterprise subscription (local provider). */
  subscriptionId: string;
  /** A shared workspace of A's, with an open invitation. */
  workspaceId: string;
  invitationId: string;
  /** A domain A listed (not verified: its proofs are under .invalid). */
  domainId: string;
  domainToken: string;
  /** A finished check again of a finding of A's project (its row written here: the check itself is tested elsewhere). */
  recheckId: string;
}

/** Text that only A's records contain: found in any answer to B, it is a leak. */
const MARKERS = { instruction: 'owner-a-instruction-7f3c', secret: 'owner-a-secret-91be', reason: 'owner-a-reason-5d20' };
/** The fingerprint of A's triage decision (a finding's fingerprint; the decision needs no scan to exist). */
const A_FINGERPRINT = 'a0a0a0a0a0a0a0a0';
const B_DECISION = { decision: 'false_positive', reason: 'taken over' };
const SCENARIO_STEPS = [
  { type: 'goto', url: '/' },
  { type: 'expect_title', text: 'Shop' },
];

type Entry =
  /** Takes one of A's ids: B gets 404 with a detail; A gets the record (read) or it is unchanged afterwards (write). */
  | { kind: 'record'; request: (a: Owner) => RawRequest; writes?: boolean }
  /** A list of the caller's records: B's has none of A's, A's has them. */
  | { kind: 'list'; path: string; ownIds: (a: Owner) => string[] }
  /** Acts on the caller only (their user, their session, their new record). */
  | { kind: 'caller'; check: (a: Owner, b: { token: string; id: string }) => Promise<void> }
  /** Authorised by a signed link or ticket, not by the bearer token: B's token opens nothing. */
  | { kind: 'signed'; request: (a: Owner) => RawRequest }
  /** Holds no user's records. */
  | { kind: 'no user data'; reason: string };

const json = (token: string, method: string, path: string, body?: unknown): RawRequest => apiRequest(method, path, { token, body });
const withoutSignature = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.pathname}`;
};

let server: Awaited<ReturnType<typeof startTestServer>>;
let site: http.Server;
let siteUrl: string;
let routes: RegisteredRoute[];
let a: Owner;
let b: { token: string; id: string; email: string; apiKey: string };
const streams = { a: '', b: '' };

const call = (request: RawRequest) => rawRequest(server.origin, request);
const asB = (method: string, path: string, body?: unknown) => call(json(b.token, method, path, body));
const asA = (method: string, path: string, body?: unknown) => call(json(a.token, method, path, body));
const siteTokenOf = async (owner: Owner) => ((await call(json(owner.token, 'GET', `/project/${owner.projectId}`))).json as { site_token: string }).site_token;
/** The monitoring script's report from the project's own site (the test site listens on 127.0.0.1). */
const siteReport = (siteToken: string, hash: string): RawRequest => ({
  method: 'POST',
  path: '/continuous-testing',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ site_token: siteToken, hash, hostname: '127.0.0.1' }),
});

const TABLE: Record<string, Entry> = {
  'GET /project/:id': { kind: 'record', request: (o) => json(o.token, 'GET', `/project/${o.projectId}`) },
  'PATCH /project/:id': { kind: 'record', writes: true, request: (o) => json(o.token, 'PATCH', `/project/${o.projectId}`, { status: 'archived', instruction_text: 'taken over' }) },
  'DELETE /project/:id': { kind: 'record', writes: true, request: (o) => json(o.token, 'DELETE', `/project/${o.projectId}`) },
  'PATCH /project_test/:id': { kind: 'record', writes: true, request: (o) => json(o.token, 'PATCH', `/project_test/${o.projectId}`) },
  'GET /project/:id/scan': { kind: 'record', request: (o) => json(o.token, 'GET', `/project/${o.projectId}/scan`) },
  'GET /events/project/:id': { kind: 'record', request: (o) => json(o.token, 'GET', `/events/project/${o.projectId}`) },
  'POST /reports': { kind: 'record', writes: true, request: (o) => json(o.token, 'POST', '/reports', { project_id: o.projectId, type: 'analytics' }) },
  'GET /reports/:id': { kind: 'record', request: (o) => json(o.token, 'GET', `/reports/${o.reportId}`) },
  'GET /projects': { kind: 'list', path: '/projects', ownIds: (o) => [o.projectId] },
  'GET /scenarios': { kind: 'list', path: '/scenarios', ownIds: (o) => [o.scenarioId] },
  'POST /scenarios': { kind: 'record', writes: true, request: (o) => json(o.token, 'POST', '/scenarios', { project_id: o.projectId, website: siteUrl, actions: SCENARIO_STEPS }) },
  // Marked as writing so that the owner's call, which would open a browser to propose scenarios, is not made.
  'POST /scenarios/generate': { kind: 'record', writes: true, request: (o) => json(o.token, 'POST', '/scenarios/generate', { project_id: o.projectId }) },
  'POST /scenarios/run-all': { kind: 'record', writes: true, request: (o) => json(o.token, 'POST', '/scenarios/run-all', { project_id: o.projectId }) },
  'GET /scenario/:id': { kind: 'record', request: (o) => json(o.token, 'GET', `/scenario/${o.scenarioId}`) },
  'DELETE /scenario/:id': { kind: 'record', writes: true, request: (o) => json(o.token, 'DELETE', `/scenario/${o.scenarioId}`) },
  'POST /scenario/:id/run': { kind: 'record', writes: true, request: (o) => json(o.token, 'POST', `/scenario/${o.scenarioId}/run`) },
  'GET /scenario-run/:id/screenshot': { kind: 'record', request: (o) => json(o.token, 'GET', `/scenario-run/${o.runId}/screenshot`) },
  'GET /scenario-run/:id/trace': { kind: 'record', request: (o) => json(o.token, 'GET', `/scenario-run/${o.runId}/trace`) },
  'GET /webhooks': { kind: 'list', path: '/webhooks', ownIds: (o) => [o.webhookId] },
  'PATCH /webhook/:id': { kind: 'record', writes: true, request: (o) => json(o.token, 'PATCH', `/webhook/${o.webhookId}`, { format: 'slack' }) },
  'DELETE /webhook/:id': { kind: 'record', writes: true, request: (o) => json(o.token, 'DELETE', `/webhook/${o.webhookId}`) },
  'GET /webhook/:id/deliveries': { kind: 'record', request: (o) => json(o.token, 'GET', `/webhook/${o.webhookId}/deliveries`) },
  'POST /webhook': {
    kind: 'caller',
    check: async (owner, caller) => {
      const created = (await call(json(caller.token, 'POST', '/webhook', { url: `${siteUrl}b-hook` }))).json as { id: string };
      expect((await call(json(owner.token, 'GET', `/webhook/${created.id}/deliveries`))).status).toBe(404);
      expect(((await call(json(owner.token, 'GET', '/webhooks'))).json as { id: string }[]).map((hook) => hook.id)).toEqual([owner.webhookId]);
    },
  },
  'POST /webhook/test': {
    kind: 'caller',
    // B may test any URL, A's too: it is signed with a one-off secret (not A's) and adds nothing to A's deliveries.
    check: async (owner, caller) => {
      const before = ((await call(json(owner.token, 'GET', `/webhook/${owner.webhookId}/deliveries`))).json as unknown[]).length;
      expect((await call(json(caller.token, 'POST', '/webhook/test', { url: `${siteUrl}a-hook` }))).json).toEqual({ status_code: 200 });
      expect(((await call(json(owner.token, 'GET', `/webhook/${owner.webhookId}/deliveries`))).json as unknown[]).length).toBe(before);
    },
  },
  'GET /project/:id/decisions': { kind: 'record', request: (o) => json(o.token, 'GET', `/project/${o.projectId}/decisions`) },
  'PUT /project/:id/decisions/:fingerprint': {
    kind: 'record',
    writes: true,
    request: (o) => json(o.token, 'PUT', `/project/${o.projectId}/decisions/${A_FINGERPRINT}`, B_DECISION),
  },
  'DELETE /project/:id/decisions/:fingerprint': { kind: 'record', writes: true, request: (o) => json(o.token, 'DELETE', `/project/${o.projectId}/decisions/${A_FINGERPRINT}`) },
  'GET /project/:id/baseline': { kind: 'record', request: (o) => json(o.token, 'GET', `/project/${o.projectId}/baseline`) },
  // Check again: B's request is refused before anything runs; A's project is unchanged (its activity gets no line).
  'POST /project/:id/findings/:fingerprint/recheck': {
    kind: 'record',
    writes: true,
    request: (o) => json(o.token, 'POST', `/project/${o.projectId}/findings/${A_FINGERPRINT}/recheck`),
  },
  'GET /project/:id/rechecks/:recheckId': { kind: 'record', request: (o) => json(o.token, 'GET', `/project/${o.projectId}/rechecks/${o.recheckId}`) },
  'GET /project/:id/rechecks': { kind: 'record', request: (o) => json(o.token, 'GET', `/project/${o.projectId}/rechecks`) },
  'GET /v1/projects/:id/decisions': { kind: 'record', request: (o) => json(o.apiKey, 'GET', `/v1/projects/${o.projectId}/decisions`) },
  'PUT /v1/projects/:id/decisions/:fingerprint': {
    kind: 'record',
    writes: true,
    request: (o) => json(o.apiKey, 'PUT', `/v1/projects/${o.projectId}/decisions/${A_FINGERPRINT}`, B_DECISION),
  },
  'DELETE /v1/projects/:id/decisions/:fingerprint': {
    kind: 'record',
    writes: true,
    request: (o) => json(o.apiKey, 'DELETE', `/v1/projects/${o.projectId}/decisions/${A_FINGERPRINT}`),
  },
  'GET /v1/projects/:id/baseline': { kind: 'record', request: (o) => json(o.apiKey, 'GET', `/v1/projects/${o.projectId}/baseline`) },
  'GET /project/:id/scans': { kind: 'record', request: (o) => json(o.token, 'GET', `/project/${o.projectId}/scans`) },
  'GET /project/:id/scans/diff': { kind: 'record', request: (o) => json(o.token, 'GET', `/project/${o.projectId}/scans/diff?to=${o.scanId}`) },
  'GET /v1/projects/:id/scans': { kind: 'record', request: (o) => json(o.apiKey, 'GET', `/v1/projects/${o.projectId}/scans`) },
  'GET /v1/projects/:id/scans/diff': { kind: 'record', request: (o) => json(o.apiKey, 'GET', `/v1/projects/${o.projectId}/scans/diff?to=${o.scanId}`) },
  'GET /domains': { kind: 'list', path: '/domains', ownIds: (o) => [o.domainId] },
  'POST /domains/:id/verify': { kind: 'record', writes: true, request: (o) => json(o.token, 'POST', `/domains/${o.domainId}/verify`) },
  'DELETE /domains/:id': { kind: 'record', writes: true, request: (o) => json(o.token, 'DELETE', `/domains/${o.domainId}`) },
  'POST /domains': {
    kind: 'caller',
    // B may list the domain A listed: B gets a token of its own, and A's list and token stay as they were.
    check: async (owner, caller) => {
      const created = await call(json(caller.token, 'POST', '/domains', { domain: 'owner-a.invalid' }));
      expect(created.status).toBe(201);
      expect((created.json as { token: string }).token).not.toBe(owner.domainToken);
      const own = (await call(json(owner.token, 'GET', '/domains'))).json as { id: string; token: string }[];
      expect(own.map((domain) => [domain.id, domain.token])).toEqual([[owner.domainId, owner.domainToken]]);
    },
  },
  'GET /events/recent': { kind: 'list', path: '/events/recent?limit=500', ownIds: (o) => [o.scanId] },
  'GET /report_links/recent': { kind: 'list', path: '/report_links/recent', ownIds: (o) => [o.reportId] },
  'POST /project': {
    kind: 'caller',
    check: async (owner, caller) => {
      const created = (await call(json(caller.token, 'POST', '/project', { url: siteUrl }))).json as { id: string };
      expect((await call(json(owner.token, 'GET', `/project/${created.id}`))).status).toBe(404);
      expect(((await call(json(owner.token, 'GET', '/projects'))).json as { id: string }[]).map((p) => p.id)).not.toContain(created.id);
    },
  },
  'GET /auth/v1/user': {
    kind: 'caller',
    check: async (_owner, caller) => expect((await call(json(caller.token, 'GET', '/auth/v1/user'))).json).toMatchObject({ id: caller.id }),
  },
  'PUT /auth/v1/user': {
    kind: 'caller',
    check: async (owner, caller) => {
      expect((await call(json(caller.token, 'PUT', '/auth/v1/user', { data: { plan: 'stolen' } }))).json).toMatchObject({ id: caller.id });
      expect(((await call(json(owner.token, 'GET', '/auth/v1/user'))).json as { user_metadata: object }).user_metadata).not.toHaveProperty('plan');
    },
  },
  'POST /live/ticket': {
    kind: 'caller',
    // The ticket names the caller's (personal) workspace and the caller.
    check: async (_owner, caller) =>
      expect(((await call(json(caller.token, 'POST', '/live/ticket'))).json as { ticket: string }).ticket.split('.').slice(0, 2)).toEqual([caller.id, caller.id]),
  },
  'POST /auth/v1/logout': {
    kind: 'caller',
    check: async (owner) => {
      // A second session of B signs out everywhere: A's session lives on.
      const other = await signUp(server.origin, 'cross-logout');
      expect((await call(json(other.token, 'POST', '/auth/v1/logout?scope=global'))).status).toBe(204);
      expect((await call(json(owner.token, 'GET', '/auth/v1/user'))).status).toBe(200);
    },
  },
  'GET /live': {
    kind: 'caller',
    // The streams of A and B were open while A's scan and report ran (beforeAll).
    check: async (owner) => {
      expect(streams.a).toContain(owner.projectId);
      expect(streams.b).not.toContain(owner.projectId);
      expect(streams.b).not.toContain(owner.scanId);
      // B's ticket relabelled with A's workspace, or with A as its user, does not verify.
      const ticket = ((await asB('POST', '/live/ticket')).json as { ticket: string }).ticket.split('.');
      for (const forged of [`${owner.id}.${ticket[1]}.${ticket[2]}.${ticket[3]}`, `${owner.id}.${owner.id}.${ticket[2]}.${ticket[3]}`]) {
        expect((await call({ method: 'GET', path: `/live?ticket=${forged}` })).status).toBe(401);
      }
    },
  },
  'GET /reports/:id/view': { kind: 'signed', request: (o) => json(b.token, 'GET', withoutSignature(o.reportUrl)) },
  'GET /reports/:id/export/:format': { kind: 'signed', request: (o) => json(b.token, 'GET', `/reports/${o.reportId}/export/json`) },
  'GET /report-preview': { kind: 'signed', request: (o) => json(b.token, 'GET', `/report-preview?signed_url=${encodeURIComponent(withoutSignature(o.reportUrl))}`) },
  'GET /v2/vibe-scanner/:id/report': { kind: 'signed', request: (o) => json(b.token, 'GET', `/v2/vibe-scanner/${o.reportId}/report`) },
  'GET /api_keys': { kind: 'list', path: '/api_keys', ownIds: (o) => [o.apiKeyId] },
  'DELETE /api_key/:id': { kind: 'record', writes: true, request: (o) => json(o.token, 'DELETE', `/api_key/${o.apiKeyId}`) },
  'GET /v1/scans/:id': { kind: 'record', request: (o) => json(o.apiKey, 'GET', `/v1/scans/${o.scanId}`) },
  'POST /api_keys': {
    kind: 'caller',
    check: async (owner, caller) => {
      const created = (await call(json(caller.token, 'POST', '/api_keys', { name: 'b key' }))).json as { id: string; key: string };
      expect(((await call(json(owner.token, 'GET', '/api_keys'))).json as { id: string }[]).map((k) => k.id)).not.toContain(created.id);
      // B's key acts for B: A's scan stays out of reach, and A's key still works after B's attempt to revoke it.
      expect((await call(json(created.key, 'GET', `/v1/scans/${owner.scanId}`))).status).toBe(404);
      expect((await call(json(owner.apiKey, 'GET', `/v1/scans/${owner.scanId}`))).status).toBe(200);
    },
  },
  'GET /api_usage': {
    kind: 'caller',
    check: async (owner) => {
      const before = ((await call(json(owner.token, 'GET', '/api_usage'))).json as { used_today: number }).used_today;
      for (let i = 0; i < 3; i++) expect((await call(json(b.apiKey, 'GET', '/v1/scans'))).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(((await call(json(owner.token, 'GET', '/api_usage'))).json as { used_today: number }).used_today).toBe(before);
      expect(((await asB('GET', '/api_usage')).json as { used_today: number }).used_today).toBeGreaterThanOrEqual(3);
    },
  },
  'GET /plan_limits': {
    kind: 'caller',
    check: async (owner, caller) => {
      // Each account's own plan; neither answer names the other account.
      const theirs = await asB('GET', '/plan_limits');
      expect(theirs.status).toBe(200);
      expect(theirs.text).not.toContain(owner.id);
      expect((theirs.json as { tier: string }).tier).toBe('enterprise');
      // B's count of what the plan limits is B's own: A's records never add to it.
      const [mine, bs] = [(await call(json(owner.token, 'GET', '/plan_limits'))).json, theirs.json] as { used: { projects: number } }[];
      expect(mine!.used.projects).toBeGreaterThan(0);
      const pool = new pg.Pool({ connectionString: server.databaseUrl, max: 1 });
      try {
        const { rows } = await pool.query<{ projects: number; scenarios: number }>(
          `select (select count(*)::int from projects where workspace_id = $1) as projects, (select count(*)::int from scenarios where workspace_id = $1) as scenarios`,
          [caller.id],
        );
        expect(bs!.used).toEqual(rows[0]);
      } finally {
        await pool.end();
      }
      expect(caller.id).not.toBe(owner.id);
    },
  },
  'GET /v1/scans': {
    kind: 'caller',
    check: async (owner, caller) => {
      const theirs = await call(json(b.apiKey, 'GET', '/v1/scans'));
      expectNothingOfA(theirs, 'GET /v1/scans');
      expect((await call(json(owner.apiKey, 'GET', '/v1/scans'))).text).toContain(owner.scanId);
      expect(caller.id).not.toBe(owner.id);
    },
  },
  'GET /v1/projects': {
    kind: 'caller',
    check: async (owner) => {
      expectNothingOfA(await call(json(b.apiKey, 'GET', '/v1/projects')), 'GET /v1/projects');
      expect((await call(json(owner.apiKey, 'GET', '/v1/projects'))).text).toContain(owner.projectId);
    },
  },
  'POST /v1/scans': {
    kind: 'caller',
    check: async (owner) => {
      const started = await call(json(b.apiKey, 'POST', '/v1/scans', { url: `${siteUrl}b-only` }));
      expect(started.status, started.text).toBe(202);
      const scan = started.json as { id: string; project_id: string };
      expect((await call(json(owner.apiKey, 'GET', `/v1/scans/${scan.id}`))).status).toBe(404);
      expect((await call(json(owner.token, 'GET', `/project/${scan.project_id}`))).status).toBe(404);
      // A signed-in scan of another user's project by its id: 404, as for any of their records.
      const theirs = await call(json(b.apiKey, 'POST', '/v1/scans', { projectId: owner.projectId }));
      expect({ status: theirs.status, body: theirs.json }).toEqual({ status: 404, body: { detail: 'Project not found' } });
      expect((await call(json(owner.apiKey, 'POST', '/v1/scans', { projectId: owner.projectId }))).status).not.toBe(404);
    },
  },
  'GET /v1/openapi.json': { kind: 'no user data', reason: 'the public API description' },
  'POST /mcp': { kind: 'caller', check: (owner, caller) => mcpAcrossUsers(owner, caller) },
  'GET /mcp': { kind: 'caller', check: (owner, caller) => mcpAcrossUsers(owner, caller) },
  'DELETE /mcp': { kind: 'caller', check: (owner, caller) => mcpAcrossUsers(owner, caller) },
  'GET /health': { kind: 'no user data', reason: 'server status' },
  'GET /app-config': { kind: 'no user data', reason: 'public client settings' },
  'OPTIONS *': { kind: 'no user data', reason: 'CORS preflight' },
  'GET /latest.js': { kind: 'no user data', reason: 'the monitoring script, the same for every site' },
  'OPTIONS /continuous-testing': { kind: 'no user data', reason: "CORS preflight of the monitoring script's report" },
  'POST /continuous-testing': {
    kind: 'caller',
    check: async (owner) => {
      // Authorised by the site token alone; the answer names the new build and nothing of the project or its owner.
      const answer = await call(siteReport(await siteTokenOf(owner), 'c0ffee01'));
      expect(answer.status, answer.text).toBe(202);
      expect(Object.keys(answer.json as object).sort()).toEqual(['build_id', 'changed']);
      expectNothingOfA(answer, 'POST /continuous-testing');
    },
  },
  'GET /continuous_builds': {
    kind: 'caller',
    check: async (owner) => {
      const built = await call(siteReport(await siteTokenOf(owner), 'c0ffee02'));
      const buildId = (built.json as { build_id: string }).build_id;
      expect(buildId).toEqual(expect.any(String));
      const theirs = await asB('GET', '/continuous_builds');
      expect(theirs.status).toBe(200);
      expect(theirs.text).not.toContain(buildId);
      expectNothingOfA(theirs, 'GET /continuous_builds');
      expect((await asA('GET', '/continuous_builds')).text).toContain(buildId);
    },
  },
  'POST /project/:id/site_token': {
    kind: 'caller',
    check: async (owner) => {
      const before = await siteTokenOf(owner);
      const refused = await asB('POST', `/project/${owner.projectId}/site_token`);
      expect(refused.status).toBe(404);
      expect((refused.json as { detail: string }).detail).toBe('Project not found');
      expect(await siteTokenOf(owner)).toBe(before);
    },
  },
  'GET /project/:id/monitoring': {
    kind: 'caller',
    check: async (owner) => {
      const refused = await asB('GET', `/project/${owner.projectId}/monitoring`);
      expect(refused.status).toBe(404);
      expect((refused.json as { detail: string }).detail).toBe('Project not found');
      expectNothingOfA(refused, 'GET /project/:id/monitoring');
      expect((await asA('GET', `/project/${owner.projectId}/monitoring`)).status).toBe(200);
    },
  },
  'PUT /project/:id/monitoring': {
    kind: 'caller',
    check: async (owner) => {
      const refused = await asB('PUT', `/project/${owner.projectId}/monitoring`, { frequency: 'daily', hour: 3, weekday: 0, timezone: 'UTC' });
      expect(refused.status).toBe(404);
      expectNothingOfA(refused, 'PUT /project/:id/monitoring');
      const mine = (await asA('GET', `/project/${owner.projectId}/monitoring`)).json as { schedule: { frequency: string; hour: number } };
      expect(mine.schedule).not.toMatchObject({ frequency: 'daily', hour: 3 });
    },
  },
  'GET /preferences': {
    kind: 'caller',
    check: async () => {
      expect((await asB('PATCH', '/preferences', { email_notifications: false, webhook_notifications: false })).status).toBe(200);
      expect((await asB('GET', '/preferences')).json).toEqual({ email_notifications: false, webhook_notifications: false });
      // A saved a webhook, which turned A's webhook notifications on; B's settings are B's alone.
      expect((await asA('GET', '/preferences')).json).toEqual({ email_notifications: true, webhook_notifications: true });
    },
  },
  'PATCH /preferences': {
    kind: 'caller',
    check: async (owner) => {
      expect((await asB('PATCH', '/preferences', { email_notifications: true, webhook_notifications: true, user_id: owner.id })).status).toBe(400);
      expect((await asB('PATCH', '/preferences', { webhook_notifications: false })).json).toMatchObject({ webhook_notifications: false });
      expect((await asA('GET', '/preferences')).json).toEqual({ email_notifications: true, webhook_notifications: true });
    },
  },
  'GET /account/export': {
    kind: 'caller',
    check: async (owner) => {
      const theirs = await asB('GET', '/account/export');
      expect(theirs.status).toBe(200);
      expectNothingOfA(theirs, 'GET /account/export');
      const mine = await asA('GET', '/account/export');
      expect(mine.text).toContain(owner.projectId);
      expect(mine.text).toContain(owner.scanId);
      expect(mine.text).not.toContain(MARKERS.secret);
    },
  },
  'DELETE /account': {
    kind: 'caller',
    check: async (owner) => {
      // B confirming with A's email is refused; a third account deleting itself leaves A's records in place.
      // With its length: node:http frames no body of a DELETE by itself.
      const deleteAccount = (token: string, email: string) => {
        const body = JSON.stringify({ email });
        return call({
          method: 'DELETE',
          path: '/account',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
          body,
        });
      };
      expect((await deleteAccount(b.token, owner.email)).status).toBe(400);
      const third = await signUp(server.origin, 'cross-delete');
      const deleted = await deleteAccount(third.token, third.email);
      expect(deleted.status, deleted.text).toBe(204);
      expect((await asA('GET', `/project/${owner.projectId}`)).status).toBe(200);
      expect((await asA('GET', `/reports/${owner.reportId}`)).status).toBe(200);
      expect((await call(json(owner.apiKey, 'GET', `/v1/scans/${owner.scanId}`))).status).toBe(200);
    },
  },
  'GET /workspaces': { kind: 'list', path: '/workspaces', ownIds: (o) => [o.workspaceId] },
  'POST /workspaces': {
    kind: 'caller',
    check: async (owner, caller) => {
      const created = (await call(json(caller.token, 'POST', '/workspaces', { name: 'B team' }))).json as { id: string };
      expect((await call(json(owner.token, 'GET', `/workspace/${created.id}`))).status).toBe(404);
      expect((await call(json(owner.token, 'GET', '/workspaces'))).text).not.toContain(created.id);
    },
  },
  'GET /workspaces/last': {
    kind: 'caller',
    check: async (owner, caller) => {
      expect((await call(json(owner.token, 'PUT', '/workspaces/last', { workspace_id: owner.workspaceId }))).status).toBe(204);
      expect((await call(json(caller.token, 'GET', '/workspaces/last'))).json).toEqual({ workspace_id: caller.id });
    },
  },
  'PUT /workspaces/last': { kind: 'record', writes: true, request: (o) => json(o.token, 'PUT', '/workspaces/last', { workspace_id: o.workspaceId }) },
  'GET /workspace/:id': { kind: 'record', request: (o) => json(o.token, 'GET', `/workspace/${o.workspaceId}`) },
  'PATCH /workspace/:id': { kind: 'record', writes: true, request: (o) => json(o.token, 'PATCH', `/workspace/${o.workspaceId}`, { name: 'Taken over' }) },
  'DELETE /workspace/:id': { kind: 'record', writes: true, request: (o) => json(o.token, 'DELETE', `/workspace/${o.workspaceId}`) },
  'GET /workspace/:id/members': { kind: 'record', request: (o) => json(o.token, 'GET', `/workspace/${o.workspaceId}/members`) },
  'DELETE /workspace/:id/members/:userId': { kind: 'record', writes: true, request: (o) => json(o.token, 'DELETE', `/workspace/${o.workspaceId}/members/${o.id}`) },
  'POST /workspace/:id/leave': { kind: 'record', writes: true, request: (o) => json(o.token, 'POST', `/workspace/${o.workspaceId}/leave`) },
  'POST /workspace/:id/transfer': { kind: 'record', writes: true, request: (o) => json(o.token, 'POST', `/workspace/${o.workspaceId}/transfer`, { user_id: b.id }) },
  'GET /workspace/:id/invitations': { kind: 'record', request: (o) => json(o.token, 'GET', `/workspace/${o.workspaceId}/invitations`) },
  'POST /workspace/:id/invitations': { kind: 'record', writes: true, request: (o) => json(o.token, 'POST', `/workspace/${o.workspaceId}/invitations`, { email: b.email }) },
  'DELETE /workspace/:id/invitations/:invitationId': {
    kind: 'record',
    writes: true,
    request: (o) => json(o.token, 'DELETE', `/workspace/${o.workspaceId}/invitations/${o.invitationId}`),
  },
  'POST /invitations/preview': { kind: 'caller', check: (owner, caller) => invitationAcrossUsers(owner, caller, '/invitations/preview') },
  'POST /invitations/accept': { kind: 'caller', check: (owner, caller) => invitationAcrossUsers(owner, caller, '/invitations/accept') },
  'GET /plans': { kind: 'no user data', reason: "the provider's price list, the same for everyone" },
  'GET /subscriptions': { kind: 'list', path: '/subscriptions', ownIds: (o) => [o.subscriptionId] },
  'POST /subscription/:id/upgrade': {
    kind: 'record',
    writes: true,
    request: (o) => json(o.token, 'POST', `/subscription/${o.subscriptionId}/upgrade`, { new_price_id: 'price_local_basic_month' }),
  },
  'POST /subscription/:id/cancel': { kind: 'record', writes: true, request: (o) => json(o.token, 'POST', `/subscription/${o.subscriptionId}/cancel`, {}) },
  // Authorised by Stripe-Signature alone (server/billing/stripe.test.ts); local billing here answers 404.
  'POST /stripe/webhook': {
    kind: 'signed',
    request: (o) => json(b.token, 'POST', '/stripe/webhook', { type: 'customer.subscription.deleted', data: { object: { id: o.subscriptionId, status: 'canceled' } } }),
  },
  'POST /subscription': {
    kind: 'caller',
    check: async (owner, caller) => {
      // B's own subscription stays B's; A's is still Enterprise, neither downgraded nor cancelled by B's calls.
      const created = await call(json(caller.token, 'POST', '/subscription', { price_id: 'price_local_pro_month' }));
      expect(created.status, created.text).toBe(201);
      const theirs = (created.json as { subscription: { id: string } }).subscription.id;
      const mine = (
        (await call(json(owner.token, 'GET', '/subscriptions'))).json as {
          subscriptions: { id: string; price_id: string; pending_price_id: string | null; cancel_at_period_end: boolean }[];
        }
      ).subscriptions;
      expect(mine).toEqual([expect.objectContaining({ id: owner.subscriptionId, price_id: 'price_local_enterprise_month', pending_price_id: null, cancel_at_period_end: false })]);
      expect(mine.map((s) => s.id)).not.toContain(theirs);
    },
  },
  'GET /auth/v1/settings': { kind: 'no user data', reason: 'public auth settings' },
  'POST /auth/v1/signup': { kind: 'no user data', reason: 'creates a new account' },
  'POST /auth/v1/token': { kind: 'no user data', reason: "signs in with the caller's own credentials or tokens" },
  'POST /auth/v1/recover': { kind: 'no user data', reason: 'answers the same whether or not the address has an account' },
  'GET /auth/v1/verify': { kind: 'no user data', reason: 'redeems a one-time token from a mail' },
  'POST /auth/v1/verify': { kind: 'no user data', reason: 'redeems a one-time token from a mail' },
  'GET /auth/v1/authorize': { kind: 'no user data', reason: 'starts a sign-in with Google, or redirects to the sign-in page' },
  'GET /auth/v1/callback': { kind: 'no user data', reason: "Google's return: redeems a one-time state for the account Google names (server/auth/google-sign-in.test.ts)" },
  'POST /v2/vibe-scanner': { kind: 'no user data', reason: 'public quick scans belong to no account' },
  'GET /v2/live-browser/framing': { kind: 'no user data', reason: "a public check of another site's framing headers, stored nowhere" },
};

/**
 * The MCP endpoint with B's API key: A's scan is 'Scan not found' for every tool, A's project is not listed, and
 * A's MCP session answers 404 to B on POST, GET and DELETE (and still works for A afterwards).
 */
async function mcpAcrossUsers(owner: Owner, caller: { id: string }) {
  const database = server.databaseUrl;
  const connect = async (userId: string) => {
    const key = await insertApiKey(database, userId);
    const transport = new StreamableHTTPClientTransport(new URL(`${server.origin}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } });
    const client = new Client({ name: 'cross-user', version: '1' });
    await client.connect(transport);
    return { key, client, sessionId: transport.sessionId! };
  };
  const [ownerSide, callerSide] = [await connect(owner.id), await connect(caller.id)];
  try {
    for (const [name, args] of [
      ['get_scan_findings', { scan_id: owner.scanId }],
      ['explain_finding', { scan_id: owner.scanId, finding_id: '0'.repeat(16) }],
    ] as const) {
      expect(await callerSide.client.callTool({ name, arguments: args }), name).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Scan not found' }] });
    }
    expect((await ownerSide.client.callTool({ name: 'get_scan_findings', arguments: { scan_id: owner.scanId } })).isError).toBeFalsy();
    expect(JSON.stringify(await callerSide.client.callTool({ name: 'list_projects', arguments: {} }))).not.toContain(owner.projectId);
    expect(JSON.stringify(await ownerSide.client.callTool({ name: 'list_projects', arguments: {} }))).toContain(owner.projectId);
    const headers = {
      authorization: `Bearer ${callerSide.key}`,
      'mcp-session-id': ownerSide.sessionId,
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
    };
    for (const method of ['POST', 'GET', 'DELETE']) {
      const answer = await call({ method, path: '/mcp', headers, body: method === 'POST' ? JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }) : undefined });
      expect(answer.status, `${method} /mcp with A's session`).toBe(404);
      expect(answer.text).not.toContain('scan_url');
    }
    expect((await ownerSide.client.listTools()).tools).toHaveLength(6);
  } finally {
    await Promise.all([ownerSide.client.close(), callerSide.client.close()]);
  }
}

/**
 * A link of an invitation to A's workspace that was sent to another address: B can neither see what it joins nor
 * accept it, and stays outside A's workspace; A's own invitation is still open and unchanged.
 */
async function invitationAcrossUsers(owner: Owner, caller: { token: string }, path: string) {
  const token = `vbi_${randomBytes(32).toString('base64url')}`;
  const pool = new pg.Pool({ connectionString: server.databaseUrl, max: 1 });
  try {
    await pool.query(`insert into workspace_invitations (workspace_id, email, invited_by, token_hash, expires_at) values ($1, $2, $3, $4, now() + interval '1 hour')`, [
      owner.workspaceId,
      `someone-else-${Date.now()}@example.com`,
      owner.id,
      createHash('sha256').update(token).digest('hex'),
    ]);
  } finally {
    await pool.end();
  }
  const refused = await call(json(caller.token, 'POST', path, { token }));
  expect(refused.status).toBe(403);
  expectNothingOfA(refused, path);
  expect((await call(json(caller.token, 'GET', `/workspace/${owner.workspaceId}`))).status).toBe(404);
  expect(((await call(json(owner.token, 'GET', `/workspace/${owner.workspaceId}/invitations`))).json as { id: string }[]).map((i) => i.id)).toContain(owner.invitationId);
}

async function openStream(token: string, into: 'a' | 'b', signal: AbortSignal) {
  const { ticket } = (await call(json(token, 'POST', '/live/ticket'))).json as { ticket: string };
  const response = await fetch(`${server.origin}/live?ticket=${ticket}`, { signal });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      streams[into] += Buffer.from(value).toString();
    }
  })().catch(() => undefined);
}

const waitFor = <T>(probe: () => Promise<T | undefined>, timeoutMs = 90_000) => until('the probe', probe, timeoutMs, 200);

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

  const owner = await signUp(server.origin, 'owner-a');
  const other = await signUp(server.origin, 'other-b');
  b = { ...other, apiKey: ((await call(json(other.token, 'POST', '/api_keys', { name: 'b' }))).json as { key: string }).key };
  const streamsOpen = new AbortController();
  await openStream(owner.token, 'a', streamsOpen.signal);
  await openStream(b.token, 'b', streamsOpen.signal);

  // A's records: a project, a finished scan with its security report, events.
  const created = await call(
    json(owner.token, 'POST', '/project', { url: siteUrl, instruction_text: MARKERS.instruction, secret_instruction: `owner-a@example.com ${MARKERS.secret}` }),
  );
  const projectId = (created.json as { id: string }).id;
  const webhookId = ((await call(json(owner.token, 'POST', '/webhook', { url: `${siteUrl}a-hook` }))).json as { id: string }).id;
  const started = (await call(json(owner.token, 'POST', '/reports', { project_id: projectId, type: 'security' }))).json as { id: string };
  const report = await waitFor(async () => {
    const status = (await call(json(owner.token, 'GET', `/reports/${started.id}`))).json as { state: string; report_url: string | null };
    return status.state === 'completed' || status.state === 'failed' ? status : undefined;
  });
  expect(report.state).toBe('completed');
  const view = (await call(json(owner.token, 'GET', `/project/${projectId}/scan`))).json as { scan: { id: string } };
  // A scenario of A's project, run once to the end.
  const scenario = (await call(json(owner.token, 'POST', '/scenarios', { project_id: projectId, website: siteUrl, actions: SCENARIO_STEPS }))).json as { id: string };
  const { run_id: runId } = (await call(json(owner.token, 'POST', `/scenario/${scenario.id}/run`))).json as { run_id: string };
  const run = await waitFor(async () => {
    const detail = (await call(json(owner.token, 'GET', `/scenario/${scenario.id}`))).json as { runs: { status: string; screenshot_url: string | null }[] };
    return detail.runs[0]?.status === 'passed' || detail.runs[0]?.status === 'failed' ? detail.runs[0] : undefined;
  });
  expect(run.status).toBe('passed');
  expect(run.screenshot_url).toMatch(/^\/scenario-run\//);
  const ownerKey = (await call(json(owner.token, 'POST', '/api_keys', { name: 'a' }))).json as { id: string; key: string };
  const subscribed = (await call(json(owner.token, 'POST', '/subscription', { price_id: 'price_local_enterprise_month' }))).json as { subscription: { id: string } };
  const workspace = (await call(json(owner.token, 'POST', '/workspaces', { name: 'A team' }))).json as { id: string };
  const invitation = (await call(json(owner.token, 'POST', `/workspace/${workspace.id}/invitations`, { email: 'a-colleague@example.com' }))).json as { id: string };
  const domain = (await call(json(owner.token, 'POST', '/domains', { domain: 'owner-a.invalid' }))).json as { id: string; token: string };
  const decided = await call(json(owner.token, 'PUT', `/project/${projectId}/decisions/${A_FINGERPRINT}`, { decision: 'accepted_risk', reason: MARKERS.reason }));
  expect(decided.status, decided.text).toBe(200);
  const rechecks = new pg.Pool({ connectionString: server.databaseUrl, max: 1 });
  const recheck = await rechecks
    .query<{ id: string }>(
      `insert into finding_rechecks (workspace_id, user_id, project_id, fingerprint, check_id, title, url, state, status, finished_at)
       values ($1, $1, $2, $3, 'exposed-env-file', 'Exposed .env file', $4, 'completed', 'fixed', now()) returning id`,
      [owner.id, projectId, A_FINGERPRINT, siteUrl],
    )
    .finally(() => rechecks.end());
  a = {
    ...owner,
    apiKey: ownerKey.key,
    apiKeyId: ownerKey.id,
    projectId,
    reportId: started.id,
    scanId: view.scan.id,
    reportUrl: report.report_url!,
    scenarioId: scenario.id,
    runId,
    webhookId,
    subscriptionId: subscribed.subscription.id,
    workspaceId: workspace.id,
    invitationId: invitation.id,
    domainId: domain.id,
    domainToken: domain.token,
    recheckId: recheck.rows[0]!.id,
  };
  await new Promise((resolve) => setTimeout(resolve, 300)); // the last live messages
  streamsOpen.abort();
}, 180_000);
afterAll(async () => {
  await server?.stop();
  await new Promise<void>((resolve) => site.close(() => resolve()));
});

/** Fails when an answer to B carries anything of A's. */
function expectNothingOfA(answer: RawAnswer, label: string) {
  for (const secret of [a.projectId, a.reportId, a.scanId, a.scenarioId, a.runId, a.recheckId, a.email, MARKERS.instruction, MARKERS.secret, MARKERS.reason]) {
    expect(answer.text.includes(secret), `${label} leaks ${secret}: ${answer.text.slice(0, 200)}`).toBe(false);
  }
}

describe("another user's records", () => {
  it('has an entry in the cross-user table for every route of the app', () => {
    const missing = routes.filter((route) => !route.file && !(routeKey(route) in TABLE)).map(routeKey);
    expect(missing, 'add these routes to TABLE in server/cross-user.test.ts').toEqual([]);
    const gone = Object.keys(TABLE).filter((key) => !routes.some((route) => routeKey(route) === key));
    expect(gone, 'these TABLE entries match no route any more').toEqual([]);
  });

  it("answers 404 for A's records on every route that takes an id, and changes nothing of A's", async () => {
    const before = (await asA('GET', `/project/${a.projectId}`)).json as { status: string; instruction_text: string; latest_scan: { id: string } };
    for (const [key, entry] of Object.entries(TABLE)) {
      if (entry.kind !== 'record') continue;
      const answer = await call(entry.request({ ...a, token: b.token, apiKey: b.apiKey }));
      expect(answer.status, key).toBe(404);
      expect((answer.json as { detail?: unknown }).detail, key).toEqual(expect.any(String));
      expectNothingOfA(answer, key);
      if (!entry.writes) expect((await call(entry.request(a))).status, `${key} for its owner`).toBe(200);
    }
    const after = (await asA('GET', `/project/${a.projectId}`)).json as typeof before;
    expect(after.status).toBe(before.status);
    expect(after.instruction_text).toBe(MARKERS.instruction);
    expect(after.latest_scan.id).toBe(before.latest_scan.id);
    expect(((await asA('GET', '/report_links/recent')).json as unknown[]).length).toBe(1);
    // A's triage decision is still there, as A made it.
    expect((await asA('GET', `/project/${a.projectId}/baseline`)).json).toEqual([
      { fingerprint: A_FINGERPRINT, decision: 'accepted_risk', reason: MARKERS.reason, expires_at: null },
    ]);
    // A's scenario is still there with its one run.
    expect(((await asA('GET', `/scenario/${a.scenarioId}`)).json as { runs: unknown[] }).runs).toHaveLength(1);
  });

  it("never lists A's records to B", async () => {
    for (const [key, entry] of Object.entries(TABLE)) {
      if (entry.kind !== 'list') continue;
      const answer = await asB('GET', entry.path);
      expect(answer.status, key).toBe(200);
      expectNothingOfA(answer, key);
      const own = await asA('GET', entry.path);
      for (const id of entry.ownIds(a)) expect(own.text.includes(id), `${key} lists ${id} for its owner`).toBe(true);
    }
  });

  it("opens no signed page of A's with B's bearer token", async () => {
    for (const [key, entry] of Object.entries(TABLE)) {
      if (entry.kind !== 'signed') continue;
      const answer = await call(entry.request(a));
      expect([401, 403, 404], key).toContain(answer.status);
      expectNothingOfA(answer, key);
    }
  });

  it('acts only on the caller on routes without an id', async () => {
    for (const [key, entry] of Object.entries(TABLE)) {
      if (entry.kind !== 'caller') continue;
      try {
        await entry.check(a, b);
      } catch (error) {
        throw new Error(`${key}: ${(error as Error).message}`);
      }
    }
  });
});
