import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { urlRefusal } from '../engine/retrieval/address-policy';
import { callApi, rawRequest, rawSocket, signUp, type RawAnswer } from './testing/http';
import { recordRoutes, routeKey, type RegisteredRoute } from './testing/routes';
import { startTestServer } from './testing/test-server';

// Hostile input against every route of the real app: no answer may be a 5xx, every 4xx says what is wrong in a
// string `detail` (and, under /auth/v1, in GoTrue's shape), and the server still answers /health afterwards.
// A route missing from TABLE fails the first test, so each new route joins the fuzz.

interface Fixtures {
  token: string;
  logoutToken: string;
  projectId: string;
  deleteProjectId: string;
  reportId: string;
  publicScanId: string;
  ticket: string;
  scenarioId: string;
  deleteScenarioId: string;
  runId: string;
  apiKey: string;
  deleteApiKeyId: string;
  v1ScanId: string;
  webhookId: string;
  deleteWebhookId: string;
  siteToken: string;
  subscriptionId: string;
  workspaceId: string;
  deleteWorkspaceId: string;
  invitationId: string;
  domainId: string;
  deleteDomainId: string;
}

interface FuzzTarget {
  /** The bearer token of the valid request (hostile variants keep it, so they reach the route's own checks). */
  auth?: 'user' | 'logout' | 'apiKey';
  /** Further headers of the valid request (kept by the hostile variants that keep the credentials). */
  headers?: Record<string, string>;
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
  /**
   * How 4xx answers look: `detail` JSON; `gotrue` adds GoTrue's fields; `page` routes are opened by a person
   * from a signed link and refuse in plain text for that person, and with `detail` JSON for malformed requests.
   */
  shape?: 'detail' | 'gotrue' | 'page';
  /** The path to send for wildcard routes (the CORS preflight). */
  path?: string;
}

const SITE = 'https://example.com/';
const signed = { exp: '1', sig: 'x' };
const SCENARIO_STEPS = [
  { type: 'goto', url: '/' },
  { type: 'expect_title', text: 'Example' },
];

const TABLE: Record<string, (fx: Fixtures) => FuzzTarget> = {
  'GET /health': () => ({}),
  'GET /app-config': () => ({}),
  'OPTIONS *': () => ({ path: '/project' }),
  'GET /auth/v1/settings': () => ({ shape: 'gotrue' }),
  'POST /auth/v1/signup': () => ({
    shape: 'gotrue',
    body: { email: 'fuzz-signup@example.com', password: 'secret123', data: { theme: 'dark' }, code_challenge: 'c'.repeat(43), code_challenge_method: 's256' },
  }),
  'POST /auth/v1/token': () => ({
    shape: 'gotrue',
    query: { grant_type: 'password' },
    body: { email: 'nobody@example.com', password: 'secret123', refresh_token: 'r', auth_code: 'a', code_verifier: 'v' },
  }),
  'POST /auth/v1/recover': () => ({ shape: 'gotrue', query: { redirect_to: 'http://127.0.0.1/reset-password' }, body: { email: 'nobody@example.com' } }),
  'GET /auth/v1/verify': () => ({ shape: 'gotrue', query: { token: 'x', type: 'recovery', redirect_to: 'http://127.0.0.1/' } }),
  'POST /auth/v1/verify': () => ({ shape: 'gotrue', body: { type: 'recovery', token_hash: 'x', token: 'y' } }),
  'GET /auth/v1/user': () => ({ shape: 'gotrue', auth: 'user' }),
  'PUT /auth/v1/user': () => ({ shape: 'gotrue', auth: 'user', body: { data: { theme: 'dark' }, email: null, password: null } }),
  'POST /auth/v1/logout': () => ({ shape: 'gotrue', auth: 'logout', query: { scope: 'local' } }),
  'GET /auth/v1/authorize': () => ({
    shape: 'gotrue',
    query: { provider: 'google', redirect_to: 'http://127.0.0.1/', code_challenge: 'c'.repeat(43), code_challenge_method: 's256' },
  }),
  'GET /auth/v1/callback': () => ({ shape: 'gotrue', query: { code: 'c', state: 's', error: 'access_denied', error_description: 'd' } }),
  'POST /project': () => ({ auth: 'user', body: { url: SITE, status: 'active', instruction_text: 'Shop', secret_instruction: 'user: a / pass: b', num_pages: 2 } }),
  'GET /projects': () => ({ auth: 'user' }),
  'GET /project/:id': (fx) => ({ auth: 'user', params: { id: fx.projectId } }),
  'PATCH /project/:id': (fx) => ({
    auth: 'user',
    params: { id: fx.projectId },
    body: { url: SITE, status: 'active', instruction_text: 'Shop', secret_instruction: 'user: a / pass: b', num_pages: 3, last_test: '2026-11-21T10:00:00.000Z' },
  }),
  'DELETE /project/:id': (fx) => ({ auth: 'user', params: { id: fx.deleteProjectId } }),
  'PATCH /project_test/:id': (fx) => ({ auth: 'user', params: { id: fx.projectId } }),
  'GET /project/:id/scan': (fx) => ({ auth: 'user', params: { id: fx.projectId } }),
  'GET /events/project/:id': (fx) => ({ auth: 'user', params: { id: fx.projectId }, query: { type: 'other', source: 'all', from: '2026-01-01', to: '2026-12-31T23:59:59Z' } }),
  'GET /events/recent': (fx) => ({ auth: 'user', query: { limit: '10', type: 'page_view', project: fx.projectId, source: 'scan', from: '2026-01-01', to: '2099-12-31' } }),
  'GET /report_links/recent': () => ({ auth: 'user' }),
  'POST /reports': (fx) => ({ auth: 'user', body: { project_id: fx.projectId, type: 'performance' } }),
  'GET /reports/:id': (fx) => ({ auth: 'user', params: { id: fx.reportId } }),
  'POST /live/ticket': () => ({ auth: 'user' }),
  'GET /live': (fx) => ({ query: { ticket: fx.ticket } }),
  'POST /mcp': () => ({
    auth: 'apiKey',
    headers: { accept: 'application/json, text/event-stream' },
    body: { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } } },
  }),
  'GET /mcp': () => ({ auth: 'apiKey', headers: { accept: 'text/event-stream', 'mcp-session-id': 'no-such-session' } }),
  'DELETE /mcp': () => ({ auth: 'apiKey', headers: { 'mcp-session-id': 'no-such-session' } }),
  'GET /reports/:id/view': (fx) => ({ shape: 'page', params: { id: fx.reportId }, query: signed }),
  'GET /reports/:id/export/:format': (fx) => ({ shape: 'page', params: { id: fx.reportId, format: 'pdf' }, query: signed }),
  'GET /report-preview': (fx) => ({ shape: 'page', query: { signed_url: `/reports/${fx.reportId}/view?exp=1&sig=x` } }),
  'POST /v2/vibe-scanner': () => ({ body: { url: SITE, email: 'fuzz@example.com' } }),
  'GET /v2/vibe-scanner/:id/report': (fx) => ({ params: { id: fx.publicScanId }, query: signed }),
  'GET /v2/live-browser/framing': () => ({ query: { url: SITE } }),
  'GET /scenarios': (fx) => ({ auth: 'user', query: { limit: '10', project_id: fx.projectId } }),
  'POST /scenarios': (fx) => ({ auth: 'user', body: { project_id: fx.projectId, website: SITE, actions: SCENARIO_STEPS, summarized_actions: 'Home page loads' } }),
  'POST /scenarios/generate': (fx) => ({ auth: 'user', body: { project_id: fx.projectId } }),
  'POST /scenarios/run-all': (fx) => ({ auth: 'user', body: { project_id: fx.projectId } }),
  'GET /scenario/:id': (fx) => ({ auth: 'user', params: { id: fx.scenarioId } }),
  'DELETE /scenario/:id': (fx) => ({ auth: 'user', params: { id: fx.deleteScenarioId } }),
  'POST /scenario/:id/run': (fx) => ({ auth: 'user', params: { id: fx.scenarioId } }),
  'GET /scenario-run/:id/screenshot': (fx) => ({ auth: 'user', params: { id: fx.runId } }),
  'GET /scenario-run/:id/trace': (fx) => ({ auth: 'user', params: { id: fx.runId } }),
  'POST /api_keys': () => ({ auth: 'user', body: { name: 'CI' } }),
  'GET /api_keys': () => ({ auth: 'user', query: { limit: '10' } }),
  'DELETE /api_key/:id': (fx) => ({ auth: 'user', params: { id: fx.deleteApiKeyId } }),
  'GET /api_usage': () => ({ auth: 'user' }),
  'GET /plan_limits': () => ({ auth: 'user' }),
  'GET /v1/openapi.json': () => ({}),
  'GET /v1/scans': () => ({ auth: 'apiKey', query: { limit: '10' } }),
  'POST /v1/scans': () => ({ auth: 'apiKey', body: { url: SITE, options: { depth: 2, include_screenshots: false } } }),
  'GET /v1/scans/:id': (fx) => ({ auth: 'apiKey', params: { id: fx.v1ScanId } }),
  'GET /v1/projects': () => ({ auth: 'apiKey', query: { limit: '10' } }),
  'POST /webhook': () => ({ auth: 'user', body: { url: `${SITE}hooks/vibeeval`, format: 'slack' } }),
  'PATCH /webhook/:id': (fx) => ({ auth: 'user', params: { id: fx.webhookId }, body: { format: 'teams' } }),
  'GET /webhooks': () => ({ auth: 'user', query: { limit: '10' } }),
  'DELETE /webhook/:id': (fx) => ({ auth: 'user', params: { id: fx.deleteWebhookId } }),
  // A private address: server mode refuses it before sending, so the fuzz sends nothing out.
  'POST /webhook/test': () => ({ auth: 'user', body: { url: 'http://10.0.0.1/hooks/vibeeval', format: 'discord' } }),
  'GET /webhook/:id/deliveries': (fx) => ({ auth: 'user', params: { id: fx.webhookId }, query: { limit: '10' } }),
  // Under .invalid (RFC 2606): the proofs' DNS question and fetch fail at once, here and on every machine.
  'GET /project/:id/decisions': (fx) => ({ auth: 'user', params: { id: fx.projectId }, query: { limit: '10' } }),
  'PUT /project/:id/decisions/:fingerprint': (fx) => ({
    auth: 'user',
    params: { id: fx.projectId, fingerprint: 'f00df00df00df00d' },
    body: { decision: 'accepted_risk', reason: 'fuzz', expires_at: '2099-01-31' },
  }),
  'DELETE /project/:id/decisions/:fingerprint': (fx) => ({ auth: 'user', params: { id: fx.projectId, fingerprint: 'f00df00df00df00d' } }),
  'GET /project/:id/baseline': (fx) => ({ auth: 'user', params: { id: fx.projectId }, query: { limit: '10' } }),
  'POST /project/:id/findings/:fingerprint/recheck': (fx) => ({ auth: 'user', params: { id: fx.projectId, fingerprint: 'f00df00df00df00d' } }),
  // A check again of no check: the valid request reaches the route's own 404.
  'GET /project/:id/rechecks/:recheckId': (fx) => ({ auth: 'user', params: { id: fx.projectId, recheckId: randomUUID() } }),
  'GET /project/:id/rechecks': (fx) => ({ auth: 'user', params: { id: fx.projectId }, query: { limit: '10' } }),
  'GET /v1/projects/:id/decisions': (fx) => ({ auth: 'apiKey', params: { id: fx.projectId }, query: { limit: '10' } }),
  'PUT /v1/projects/:id/decisions/:fingerprint': (fx) => ({
    auth: 'apiKey',
    params: { id: fx.projectId, fingerprint: 'f00df00df00df00e' },
    body: { decision: 'false_positive', reason: 'fuzz' },
  }),
  'DELETE /v1/projects/:id/decisions/:fingerprint': (fx) => ({ auth: 'apiKey', params: { id: fx.projectId, fingerprint: 'f00df00df00df00e' } }),
  'GET /v1/projects/:id/baseline': (fx) => ({ auth: 'apiKey', params: { id: fx.projectId }, query: { limit: '10' } }),
  // Two scan ids of no scan: the valid request reaches the diff's own 404.
  'GET /project/:id/scans': (fx) => ({ auth: 'user', params: { id: fx.projectId }, query: { limit: '10' } }),
  'GET /project/:id/scans/diff': (fx) => ({ auth: 'user', params: { id: fx.projectId }, query: { from: randomUUID(), to: randomUUID() } }),
  'GET /v1/projects/:id/scans': (fx) => ({ auth: 'apiKey', params: { id: fx.projectId }, query: { limit: '10' } }),
  'GET /v1/projects/:id/scans/diff': (fx) => ({ auth: 'apiKey', params: { id: fx.projectId }, query: { from: randomUUID(), to: randomUUID() } }),
  'GET /domains': () => ({ auth: 'user', query: { limit: '10' } }),
  'POST /domains': () => ({ auth: 'user', body: { domain: 'fuzz-added.invalid' } }),
  'POST /domains/:id/verify': (fx) => ({ auth: 'user', params: { id: fx.domainId } }),
  'DELETE /domains/:id': (fx) => ({ auth: 'user', params: { id: fx.deleteDomainId } }),
  'GET /latest.js': () => ({}),
  'OPTIONS /continuous-testing': () => ({ headers: { origin: 'https://example.com', 'access-control-request-method': 'POST' } }),
  'POST /continuous-testing': (fx) => ({ headers: { origin: 'https://example.com' }, body: { site_token: fx.siteToken, hash: 'abcdef01', hostname: 'example.com' } }),
  'GET /continuous_builds': () => ({ auth: 'user', query: { limit: '10' } }),
  'POST /project/:id/site_token': (fx) => ({ auth: 'user', params: { id: fx.projectId } }),
  'GET /project/:id/monitoring': (fx) => ({ auth: 'user', params: { id: fx.projectId } }),
  'PUT /project/:id/monitoring': (fx) => ({ auth: 'user', params: { id: fx.projectId }, body: { frequency: 'weekly', hour: 9, weekday: 1, timezone: 'Europe/Berlin' } }),
  'GET /preferences': () => ({ auth: 'user' }),
  'PATCH /preferences': () => ({ auth: 'user', body: { email_notifications: true, webhook_notifications: false } }),
  'GET /account/export': () => ({ auth: 'user' }),
  // The email of no account: every variant is refused before anything is deleted, and the fuzz user stays.
  'DELETE /account': () => ({ auth: 'user', body: { email: 'not-this-account@example.com' } }),
  'GET /workspaces': () => ({ auth: 'user', query: { limit: '10' } }),
  'POST /workspaces': () => ({ auth: 'user', body: { name: 'Agency' } }),
  'GET /workspaces/last': () => ({ auth: 'user' }),
  'PUT /workspaces/last': (fx) => ({ auth: 'user', body: { workspace_id: fx.workspaceId } }),
  'GET /workspace/:id': (fx) => ({ auth: 'user', params: { id: fx.workspaceId } }),
  'PATCH /workspace/:id': (fx) => ({ auth: 'user', params: { id: fx.workspaceId }, body: { name: 'Agency renamed' } }),
  'DELETE /workspace/:id': (fx) => ({ auth: 'user', params: { id: fx.deleteWorkspaceId } }),
  'GET /workspace/:id/members': (fx) => ({ auth: 'user', params: { id: fx.workspaceId }, query: { limit: '10' } }),
  'DELETE /workspace/:id/members/:userId': (fx) => ({ auth: 'user', params: { id: fx.workspaceId, userId: randomUUID() } }),
  'POST /workspace/:id/leave': (fx) => ({ auth: 'user', params: { id: fx.workspaceId } }),
  'POST /workspace/:id/transfer': (fx) => ({ auth: 'user', params: { id: fx.workspaceId }, body: { user_id: randomUUID() } }),
  'GET /workspace/:id/invitations': (fx) => ({ auth: 'user', params: { id: fx.workspaceId }, query: { limit: '10' } }),
  'POST /workspace/:id/invitations': (fx) => ({ auth: 'user', params: { id: fx.workspaceId }, body: { email: 'fuzz-colleague@example.com' } }),
  'DELETE /workspace/:id/invitations/:invitationId': (fx) => ({ auth: 'user', params: { id: fx.workspaceId, invitationId: fx.invitationId } }),
  'POST /invitations/preview': () => ({ auth: 'user', body: { token: `vbi_${'A'.repeat(43)}` } }),
  'POST /invitations/accept': () => ({ auth: 'user', body: { token: `vbi_${'A'.repeat(43)}` } }),
  'GET /plans': () => ({}),
  'GET /subscriptions': () => ({ auth: 'user' }),
  'POST /subscription': () => ({ auth: 'user', body: { price_id: 'price_local_pro_month' } }),
  'POST /subscription/:id/upgrade': (fx) => ({ auth: 'user', params: { id: fx.subscriptionId }, body: { new_price_id: 'price_local_pro_month' } }),
  'POST /subscription/:id/cancel': (fx) => ({ auth: 'user', params: { id: fx.subscriptionId }, body: {} }),
  // Local billing here: the route answers that Stripe is not configured; with Stripe, server/billing/stripe.test.ts.
  'POST /stripe/webhook': () => ({
    headers: { 'stripe-signature': 't=1,v1=00' },
    body: { id: 'evt_1', object: 'event', type: 'customer.subscription.updated', data: { object: { id: 'sub_1' } } },
  }),
};
/** Files of the built renderer (one route each): a few are fuzzed like any GET route. */
const FILE_ROUTES_FUZZED = 2;

interface Variant {
  label: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** Refused by Node's HTTP parser before any route is chosen: `{detail}` whatever the route. */
  beforeRouting?: boolean;
}

const nest = (levels: number, leaf: unknown = 1): unknown => {
  let value = leaf;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
};
const HOSTILE_VALUES: [string, unknown][] = [
  ['NUL', 'a\u0000b'],
  ['huge string', 'x'.repeat(200_000)],
  ['year zero', '0000-01-01T00:00:00Z'],
  ['lone surrogate', '\ud800'],
  ['empty string', ''],
  ['number', 12345],
  ['negative', -1],
  ['huge number', 1e308],
  ['boolean', true],
  ['null', null],
  ['array', ['x', 1]],
  ['object', { nested: 'x' }],
  ['nested 20', nest(20)],
  ['nested 40', nest(40)],
  ['nested 3000', nest(3000)],
];
/** For a field whose valid value is an object (free-form metadata): the hostile value goes inside it. */
const hostileInside = (value: Record<string, unknown>): [string, unknown][] => [
  ['NUL in a nested value', { ...value, inner: 'a\u0000b' }],
  ['NUL in a nested key', { ...value, 'in\u0000ner': 1 }],
  ['nested 3000 inside', { ...value, inner: nest(3000) }],
  ['a large nested value', { ...value, inner: 'x'.repeat(50_000) }],
];
const HOSTILE_BODIES: [string, string | Buffer][] = [
  ['truncated JSON', '{"a":'],
  ['array body', '[]'],
  ['string body', '"text"'],
  ['number body', '123'],
  ['null body', 'null'],
  ['empty body', ''],
  ['5000 levels deep', `${'['.repeat(5000)}${']'.repeat(5000)}`],
  ['5000 objects deep', `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`],
  ['prototype poisoning', '{"__proto__":{"polluted":true}}'],
  ['constructor poisoning', '{"constructor":{"prototype":{"polluted":true}}}'],
  ['invalid UTF-8', Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d])],
  ['raw NUL byte', Buffer.from('{"a":"\u0000"}')],
  ['NUL in a key', '{"k\\u0000ey":1}'],
  ['over the body limit', `{"a":"${'x'.repeat(1_100_000)}"}`],
];
const CONTENT_TYPES = [
  'text/plain',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=utf-16',
  'application/json-patch+json',
];
const HOSTILE_QUERY_VALUES: [string, string][] = [
  ['NUL', '%00'],
  ['bad percent-encoding', '%zz'],
  ['broken UTF-8', '%E0%A4%A'],
  ['huge', 'x'.repeat(6000)],
  ['empty', ''],
];
const HOSTILE_PARAMS: [string, string][] = [
  ['NUL', '%00'],
  ['NUL inside', `abc%00def`],
  ['bad percent-encoding', '%zz'],
  ['not a UUID', 'not-a-uuid'],
  ['over the router limit', 'x'.repeat(150)],
  ['path traversal', '..%2F..%2Fetc%2Fpasswd'],
  ['unknown UUID', randomUUID()],
  ['unicode', '%E2%98%83'],
  ['SQL', "1'%20or%20'1'%3D'1"],
];

function fill(url: string, params: Record<string, string>): string {
  return url.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? 'x'));
}
function queryString(query: Record<string, string>, raw: Record<string, string> = {}): string {
  const parts = [
    ...Object.entries(query)
      .filter(([key]) => !(key in raw))
      .map(([k, v]) => `${k}=${encodeURIComponent(v)}`),
    ...Object.entries(raw).map(([k, v]) => `${k}=${v}`),
  ];
  return parts.length ? `?${parts.join('&')}` : '';
}

/** The bounded set of hostile requests for one route. */
function variantsFor(route: RegisteredRoute, target: FuzzTarget, fx: Fixtures): Variant[] {
  const token = target.auth === 'user' ? fx.token : target.auth === 'logout' ? fx.logoutToken : target.auth === 'apiKey' ? fx.apiKey : undefined;
  const auth: Record<string, string> = { ...(token ? { authorization: `Bearer ${token}` } : {}), ...target.headers };
  const params = target.params ?? {};
  const query = target.query ?? {};
  const basePath = target.path ?? fill(route.url, params);
  const path = basePath + queryString(query);
  const hasBody = !['GET', 'HEAD', 'OPTIONS'].includes(route.method);
  const json = { ...auth, 'content-type': 'application/json' };
  const body = target.body ?? {};
  const out: Variant[] = [];
  const add = (label: string, variant: Partial<Variant>) => out.push({ label, method: route.method, path, headers: auth, ...variant });

  add('valid request', hasBody ? { headers: json, body: JSON.stringify(body) } : {});
  add('no credentials', { headers: {} });
  add('a forged token', { headers: { authorization: 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.' } });
  add('a huge token', { headers: { authorization: `Bearer ${'a'.repeat(8000)}` } });
  add('headers over 16 KB', { headers: { ...auth, 'x-big': 'x'.repeat(20_000) }, beforeRouting: true });
  add('a 20 KB URL', { path: `${basePath}?pad=${'x'.repeat(20_000)}`, beforeRouting: true });
  add('an unknown query parameter', { path: basePath + queryString(query, { unknown_param: 'x' }) });
  add('a repeated query parameter', { path: `${path}${path.includes('?') ? '&' : '?'}${Object.keys(query)[0] ?? 'q'}=again` });
  add('a query of separators', { path: `${basePath}?&&=&=%` });
  for (const key of [...Object.keys(query), 'unknown_param']) {
    for (const [label, value] of HOSTILE_QUERY_VALUES) add(`query ${key}: ${label}`, { path: basePath + queryString(query, { [key]: value }) });
  }
  for (const name of Object.keys(params)) {
    for (const [label, value] of HOSTILE_PARAMS) {
      add(`path ${name}: ${label}`, {
        path: route.url.replace(/:(\w+)/g, (_, other: string) => (other === name ? value : encodeURIComponent(params[other] ?? 'x'))) + queryString(query),
      });
    }
  }
  if (!hasBody) return out;
  for (const field of [...Object.keys(body), 'unknown_field']) {
    const valid = body[field];
    const inside = valid && typeof valid === 'object' && !Array.isArray(valid) ? hostileInside(valid as Record<string, unknown>) : [];
    for (const [label, value] of [...HOSTILE_VALUES, ...inside]) add(`body ${field}: ${label}`, { headers: json, body: JSON.stringify({ ...body, [field]: value }) });
  }
  for (const [label, raw] of HOSTILE_BODIES) add(`body: ${label}`, { headers: json, body: raw });
  for (const type of CONTENT_TYPES) add(`content-type ${type}`, { headers: { ...auth, 'content-type': type }, body: JSON.stringify(body) });
  add('a body without a content-type', { body: JSON.stringify(body) });
  return out;
}

/** What is wrong with an answer, or null. */
function problemWith(answer: RawAnswer, shape: FuzzTarget['shape'], beforeRouting = false): string | null {
  if (answer.status >= 500 || answer.status === 0) return `answered ${answer.status}`;
  if (answer.status < 400) return null;
  if (shape === 'page' && answer.contentType.startsWith('text/plain') && answer.text.trim().length > 0) return null;
  const body = answer.json as Record<string, unknown> | undefined;
  if (typeof body?.detail !== 'string' || body.detail.length === 0) return `${answer.status} without a string detail: ${answer.text.slice(0, 160)}`;
  if (answer.status === 400 && /^(Invalid input|Too (big|small)|Unrecognized key|Invalid option)/.test(body.detail)) return `400 naming no field: ${body.detail}`;
  if (shape === 'gotrue' && !beforeRouting && (typeof body.msg !== 'string' || typeof body.error_code !== 'string' || typeof body.code !== 'number')) {
    return `not in GoTrue's shape: ${answer.text.slice(0, 160)}`;
  }
  return null;
}

let server: Awaited<ReturnType<typeof startTestServer>>;
let routes: RegisteredRoute[];
let fx: Fixtures;

const call = (method: string, path: string, token?: string, body?: unknown) => callApi(server.origin, method, path, { token, body });

beforeAll(async () => {
  const recorder = recordRoutes();
  try {
    // Server mode: scans refuse private addresses (and none run here: no worker).
    // The Enterprise API plan (no daily limit), so that every hostile request reaches the /v1 routes' own checks.
    server = await startTestServer({
      VIBEEVAL_SCAN_CONCURRENCY: '0',
      VIBEEVAL_SCENARIO_CONCURRENCY: '0',
      VIBEEVAL_SCAN_ALLOW_PRIVATE: 'false',
      VIBEEVAL_SCAN_RENDER: 'false',
      VIBEEVAL_API_PLAN: 'enterprise',
    });
  } finally {
    recorder.stop();
  }
  routes = recorder.routes();
  const user = await signUp(server.origin, 'fuzz');
  const project = (await call('POST', '/project', user.token, { url: SITE })).json as { id: string };
  const doomed = (await call('POST', '/project', user.token, { url: SITE })).json as { id: string };
  const report = (await call('POST', '/reports', user.token, { project_id: project.id, type: 'performance' })).json as { id: string };
  const publicScan = (await call('POST', '/v2/vibe-scanner', undefined, { url: SITE, email: 'fuzz-fixture@example.com' })).json as { id: string };
  const ticket = (await call('POST', '/live/ticket', user.token)).json as { ticket: string };
  const scenario = (await call('POST', '/scenarios', user.token, { project_id: project.id, website: SITE, actions: SCENARIO_STEPS })).json as { id: string };
  const doomedScenario = (await call('POST', '/scenarios', user.token, { website: SITE, actions: SCENARIO_STEPS })).json as { id: string };
  const run = (await call('POST', `/scenario/${scenario.id}/run`, user.token)).json as { run_id: string };
  const apiKey = ((await call('POST', '/api_keys', user.token, { name: 'fuzz' })).json as { key: string }).key;
  const doomedKey = (await call('POST', '/api_keys', user.token, { name: 'doomed' })).json as { id: string };
  const v1Scan = (await call('POST', '/v1/scans', apiKey, { url: 'https://example.org/' })).json as { id: string };
  const webhook = (await call('POST', '/webhook', user.token, { url: `${SITE}hooks/a` })).json as { id: string };
  const doomedWebhook = (await call('POST', '/webhook', user.token, { url: `${SITE}hooks/b` })).json as { id: string };
  // Enterprise: the fuzzing account is held by no plan limit.
  const subscription = (await call('POST', '/subscription', user.token, { price_id: 'price_local_enterprise_month' })).json as { subscription: { id: string } };
  const workspace = (await call('POST', '/workspaces', user.token, { name: 'Fuzz team' })).json as { id: string };
  const doomedWorkspace = (await call('POST', '/workspaces', user.token, { name: 'Fuzz doomed' })).json as { id: string };
  const invitation = (await call('POST', `/workspace/${workspace.id}/invitations`, user.token, { email: 'fuzz-invitee@example.com' })).json as { id: string };
  const domain = (await call('POST', '/domains', user.token, { domain: 'fuzz.invalid' })).json as { id: string };
  const doomedDomain = (await call('POST', '/domains', user.token, { domain: 'fuzz-doomed.invalid' })).json as { id: string };
  fx = {
    token: user.token,
    logoutToken: (await signUp(server.origin, 'fuzz-logout')).token,
    projectId: project.id,
    deleteProjectId: doomed.id,
    reportId: report.id,
    publicScanId: publicScan.id,
    ticket: ticket.ticket,
    scenarioId: scenario.id,
    deleteScenarioId: doomedScenario.id,
    runId: run.run_id,
    apiKey,
    deleteApiKeyId: doomedKey.id,
    v1ScanId: v1Scan.id,
    webhookId: webhook.id,
    deleteWebhookId: doomedWebhook.id,
    siteToken: ((await call('GET', `/project/${project.id}`, user.token)).json as { site_token: string }).site_token,
    subscriptionId: subscription.subscription.id,
    workspaceId: workspace.id,
    deleteWorkspaceId: doomedWorkspace.id,
    invitationId: invitation.id,
    domainId: domain.id,
    deleteDomainId: doomedDomain.id,
  };
  expect(Object.values(fx).every((value) => typeof value === 'string' && value.length > 0)).toBe(true);
});
afterAll(async () => {
  await server?.stop();
});

describe('every route under hostile input', () => {
  it('has an entry in the fuzz table for every route of the app', () => {
    const missing = routes.filter((route) => !route.file && !(routeKey(route) in TABLE)).map(routeKey);
    expect(missing, 'add these routes to TABLE in server/http-fuzz.test.ts').toEqual([]);
    const gone = Object.keys(TABLE).filter((key) => !routes.some((route) => routeKey(route) === key));
    expect(gone, 'these TABLE entries match no route any more').toEqual([]);
    if (!routes.some((route) => route.file)) console.warn('the built renderer was not found: its file routes are not fuzzed (run `npm run build`)');
  });

  it('never answers 5xx, always says what is wrong, and keeps serving', async () => {
    const started = Date.now();
    const problems: string[] = [];
    let sent = 0;
    const targets: [RegisteredRoute, FuzzTarget][] = [
      ...routes.filter((route) => !route.file && routeKey(route) in TABLE).map((route): [RegisteredRoute, FuzzTarget] => [route, TABLE[routeKey(route)]!(fx)]),
      ...routes
        .filter((route) => route.file && route.method === 'GET')
        .slice(0, FILE_ROUTES_FUZZED)
        .map((route): [RegisteredRoute, FuzzTarget] => [route, {}]),
    ];
    for (const [route, target] of targets) {
      // Requests of one route go out a few at a time: bounded, and still some concurrency on the same records.
      const variants = variantsFor(route, target, fx);
      for (let i = 0; i < variants.length; i += 4) {
        const batch = variants.slice(i, i + 4);
        const answers = await Promise.all(
          batch.map((variant) =>
            rawRequest(server.origin, variant).catch((error: Error): RawAnswer => ({
              status: 0,
              contentType: '',
              headers: new Headers(),
              text: error.message,
              bytes: Buffer.alloc(0),
              json: undefined,
            })),
          ),
        );
        answers.forEach((answer, j) => {
          const variant = batch[j]!;
          const problem = problemWith(answer, target.shape, variant.beforeRouting);
          if (problem) problems.push(`${routeKey(route)} with ${variant.label}: ${problem}`);
        });
        sent += batch.length;
      }
    }
    console.log(`fuzz: ${sent} requests over ${targets.length} routes in ${Date.now() - started} ms`);
    expect(problems).toEqual([]);
    expect(sent).toBeGreaterThan(1000);
    expect((await call('GET', '/health')).status).toBe(200);
  }, 180_000);

  it('answers requests Node itself refuses with a detail', async () => {
    const cases = [
      'NOT A REQUEST\r\n\r\n',
      'GET /health HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0000b\r\n\r\n',
      'GET /health HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n',
      'POST /project HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'x'.repeat(20_000)}\r\n\r\n`,
    ];
    for (const bytes of cases) {
      const answer = await rawSocket(server.origin, bytes);
      expect([400, 431], bytes.slice(0, 40)).toContain(answer.status);
      expect((answer.json as { detail?: unknown }).detail, bytes.slice(0, 40)).toEqual(expect.any(String));
    }
    expect((await call('GET', '/health')).status).toBe(200);
  });
});

/**
 * The routes that take a URL the server itself will fetch (scan, render, deliver to, frame-check), and which field
 * carries it: each must refuse every address the strict policy refuses, before storing or fetching anything.
 */
const SSRF_TABLE: Record<string, { field: string; in: 'body' | 'query' }> = {
  'POST /project': { field: 'url', in: 'body' },
  'PATCH /project/:id': { field: 'url', in: 'body' },
  'POST /scenarios': { field: 'website', in: 'body' },
  'POST /v2/vibe-scanner': { field: 'url', in: 'body' },
  'GET /v2/live-browser/framing': { field: 'url', in: 'query' },
  'POST /v1/scans': { field: 'url', in: 'body' },
  'POST /webhook': { field: 'url', in: 'body' },
  'POST /webhook/test': { field: 'url', in: 'body' },
};
/** Routes whose valid request carries a URL the server never fetches, and why. */
const URL_NOT_FETCHED: Record<string, string> = {
  'POST /auth/v1/recover': 'redirect_to is where the mail link sends the browser, checked against the allowed redirects',
  'GET /auth/v1/verify': 'redirect_to is where the browser is sent, checked against the allowed redirects',
  'GET /auth/v1/authorize': 'redirect_to is where the browser is sent after Google, checked against the allowed redirects',
  'GET /report-preview': 'signed_url is read for its path and signature only',
  'OPTIONS /continuous-testing': 'the origin header is compared, not fetched',
  'POST /continuous-testing': 'the origin header and hostname are compared, not fetched',
};
/** Loopback, private, metadata and the IPv6 forms that carry them. */
const SSRF_URLS = [
  'http://127.0.0.1:8080/',
  'http://localhost/',
  'http://[::1]/',
  'http://10.1.2.3/admin',
  'http://169.254.169.254/latest/meta-data/',
  'http://[::ffff:127.0.0.1]/',
  'http://[::127.0.0.1]/',
  'http://[64:ff9b::7f00:1]/',
  'http://[64:ff9b:1::a9fe:a9fe]/',
  'http://[::ffff:0:7f00:1]/',
  'http://[2002:a9fe:a9fe::1]/',
];
const carriesUrl = (value: unknown): boolean =>
  typeof value === 'string' ? /^https?:\/\/|^\/reports\//.test(value) : typeof value === 'object' && value !== null && Object.values(value).some(carriesUrl);

describe('every route that takes a URL, from a strict server', () => {
  it('has an entry in the SSRF table for every route whose request carries a URL, and for nothing else', () => {
    const taking = Object.entries(TABLE)
      .filter(([, target]) => {
        const valid = target(fx);
        return carriesUrl(valid.body) || carriesUrl(valid.query) || carriesUrl(valid.headers);
      })
      .map(([key]) => key);
    expect(
      taking.filter((key) => !(key in SSRF_TABLE) && !(key in URL_NOT_FETCHED)),
      'add these routes to SSRF_TABLE (or URL_NOT_FETCHED, saying why)',
    ).toEqual([]);
    expect(
      [...Object.keys(SSRF_TABLE), ...Object.keys(URL_NOT_FETCHED)].filter((key) => !taking.includes(key)),
      'these entries take no URL any more',
    ).toEqual([]);
  });

  it("refuses every non-public address on every such route with the policy's reason", async () => {
    const problems: string[] = [];
    for (const [key, { field, in: where }] of Object.entries(SSRF_TABLE)) {
      const route = routes.find((candidate) => routeKey(candidate) === key)!;
      const target = TABLE[key]!(fx);
      const token = target.auth === 'user' ? fx.token : target.auth === 'apiKey' ? fx.apiKey : undefined;
      for (const url of SSRF_URLS) {
        const query = where === 'query' ? { ...target.query, [field]: url } : (target.query ?? {});
        const body = where === 'body' ? { ...target.body, [field]: url } : target.body;
        const answer = await rawRequest(server.origin, {
          method: route.method,
          path: fill(route.url, target.params ?? {}) + queryString(query),
          headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...target.headers, ...(body ? { 'content-type': 'application/json' } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        });
        const reason = await urlRefusal({ allowPrivate: false }, url, new Map());
        const detail = (answer.json as { detail?: string } | undefined)?.detail ?? answer.text;
        if (!reason || answer.status < 400 || answer.status >= 500 || !detail.includes('private or loopback'))
          problems.push(`${key} with ${url}: ${answer.status} ${answer.text.slice(0, 160)}`);
      }
    }
    expect(problems).toEqual([]);
  }, 120_000);
});

describe('the defects found by probing, one by one', () => {
  const nul = 'bad\u0000value';

  it('refuses NUL in every project field with a 400 naming it', async () => {
    const valid = { url: SITE, status: 'active', instruction_text: 'Shop', secret_instruction: 'user: a / pass: b' };
    for (const field of Object.keys(valid)) {
      for (const [method, path] of [
        ['POST', '/project'],
        ['PATCH', `/project/${fx.projectId}`],
      ] as const) {
        const answer = await call(method, path, fx.token, { ...valid, [field]: nul });
        expect({ status: answer.status, body: answer.json }, `${method} ${field}`).toEqual({
          status: 400,
          body: { detail: `${field}: must not contain the NUL character (\\u0000)` },
        });
      }
    }
    expect((await call('GET', '/project/%00', fx.token)).json).toEqual({ detail: 'id: must not contain the NUL character (\\u0000)' });
    expect((await call('GET', '/events/recent?limit=1%00', fx.token)).json).toEqual({ detail: 'limit: must not contain the NUL character (\\u0000)' });
  });

  it('refuses NUL in user metadata keys and values in GoTrue shape, with detail', async () => {
    const signup = await call('POST', '/auth/v1/signup', undefined, { email: `nul-${Date.now()}@example.com`, password: 'secret123', data: { theme: nul } });
    expect(signup.status).toBe(400);
    expect(signup.json).toEqual({
      code: 400,
      error_code: 'validation_failed',
      msg: 'data.theme: must not contain the NUL character (\\u0000)',
      detail: 'data.theme: must not contain the NUL character (\\u0000)',
    });
    const update = await call('PUT', '/auth/v1/user', fx.token, { data: { [nul]: 1 } });
    expect(update.status).toBe(400);
    expect((update.json as { detail: string }).detail).toBe('data."bad\\u0000value": must not contain the NUL character (\\u0000)');
  });

  it('bounds user metadata in depth and size', async () => {
    const deep = JSON.stringify({ data: nest(3000) });
    expect(deep.length).toBeGreaterThan(15_000);
    for (const [method, path, token, body] of [
      ['POST', '/auth/v1/signup', undefined, `{"email":"deep-${Date.now()}@example.com","password":"secret123",${deep.slice(1)}`],
      ['PUT', '/auth/v1/user', fx.token, deep],
    ] as const) {
      const answer = await rawRequest(server.origin, {
        method,
        path,
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body,
      });
      expect(answer.status, path).toBe(400);
      expect((answer.json as { detail: string }).detail).toBe('body: JSON may nest at most 32 levels deep');
    }
    expect((await call('PUT', '/auth/v1/user', fx.token, { data: nest(12) })).json).toMatchObject({ detail: 'data: may nest at most 8 levels deep' });
    expect((await call('PUT', '/auth/v1/user', fx.token, { data: { big: 'x'.repeat(5000) } })).json).toMatchObject({ detail: 'data: may take at most 4096 bytes as JSON' });
    // Each change is small, their sum is not; the changes that fit are all kept.
    const pieces: number[] = [];
    for (const i of [0, 1, 2]) pieces.push((await call('PUT', '/auth/v1/user', fx.token, { data: { [`piece${i}`]: 'x'.repeat(1500) } })).status);
    expect(pieces).toEqual([200, 200, 400]);
    const stored = ((await call('GET', '/auth/v1/user', fx.token)).json as { user_metadata: Record<string, unknown> }).user_metadata;
    expect(Object.keys(stored).filter((key) => key.startsWith('piece'))).toEqual(['piece0', 'piece1']);
    expect((await call('GET', '/health')).status).toBe(200);
  });

  it('says which field is wrong in framework answers', async () => {
    const expectations: [RawAnswer, number, string][] = [
      [await call('GET', '/project/%zz', fx.token), 400, 'url: the path is not valid percent-encoding'],
      [await call('GET', `/project/${'x'.repeat(150)}`, fx.token), 414, 'url: a path parameter is longer than 100 characters'],
      [await call('POST', '/project', fx.token, { url: SITE, num_pages: 'x' }), 400, 'num_pages: Invalid input: expected number, received string'],
      [await call('GET', '/events/recent?limit=x', fx.token), 400, 'limit: must be a number'],
      [await call('GET', '/events/recent?type=visit', fx.token), 400, 'type: must be one of page_view, form_submit, button_click, error, api_call, other'],
      [await call('GET', '/events/recent?source=bot', fx.token), 400, 'source: must be one of site, scan, scenario, all'],
      [await call('GET', '/events/recent?project=42', fx.token), 400, 'project: must be a project id'],
      [await call('GET', '/events/recent?from=yesterday', fx.token), 400, 'from: must be a date (YYYY-MM-DD) or an ISO 8601 time'],
      [await call('GET', '/events/recent?to=2026-02-31', fx.token), 400, 'to: is not a real date'],
      [await call('GET', `/events/project/${fx.projectId}?from=2026-03-02&to=2026-03-01`, fx.token), 400, 'to: must be after from'],
      [await call('GET', `/live?ticket=${'x'.repeat(301)}`), 400, 'ticket: Too big: expected string to have <=300 characters'],
      [await call('GET', `/report-preview?signed_url=${'x'.repeat(4001)}`), 400, 'signed_url: Too big: expected string to have <=4000 characters'],
      [
        await rawRequest(server.origin, { method: 'POST', path: '/project', headers: { authorization: `Bearer ${fx.token}`, 'content-type': 'application/xml' }, body: '<a/>' }),
        415,
        "content-type: 'application/xml' is not accepted; send application/json",
      ],
      [
        await rawRequest(server.origin, {
          method: 'POST',
          path: '/project',
          headers: { authorization: `Bearer ${fx.token}`, 'content-type': 'application/json' },
          body: `"${'x'.repeat(1_100_000)}"`,
        }),
        413,
        'body: larger than the limit of 1048576 bytes',
      ],
      [await rawRequest(server.origin, { method: 'GET', path: `/health?${'x'.repeat(20_000)}` }), 431, 'headers: the request line and headers exceed 16 KB'],
    ];
    for (const [answer, status, detail] of expectations) expect({ status: answer.status, body: answer.json }).toEqual({ status, body: { detail } });
    // Under /auth/v1 the same answers keep GoTrue's shape.
    const auth = await call('GET', '/auth/v1/verify%zz');
    expect(auth.json).toEqual({
      code: 400,
      error_code: 'validation_failed',
      msg: 'url: the path is not valid percent-encoding',
      detail: 'url: the path is not valid percent-encoding',
    });
  });

  it("refuses a project URL the server's address policy refuses, with the policy's reason", async () => {
    const policy = { allowPrivate: false };
    for (const url of [
      'http://127.0.0.1:8080/',
      'http://localhost/',
      'http://[::1]/',
      'http://10.1.2.3/admin',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::127.0.0.1]/',
      'http://[64:ff9b::7f00:1]/',
      'http://[::ffff:0:7f00:1]/',
      'http://[64:ff9b:1::a9fe:a9fe]/',
      'http://[2002:a9fe:a9fe::1]/',
    ]) {
      const answer = await call('POST', '/project', fx.token, { url });
      const reason = await urlRefusal(policy, url, new Map());
      expect(reason, url).toMatch(/private or loopback/);
      expect({ status: answer.status, body: answer.json }, url).toEqual({ status: 400, body: { detail: reason } });
    }
    const moved = await call('PATCH', `/project/${fx.projectId}`, fx.token, { url: 'http://192.168.0.1/' });
    expect(moved.status).toBe(400);
    expect(((await call('GET', `/project/${fx.projectId}`, fx.token)).json as { url: string }).url).not.toBe('http://192.168.0.1/');
    // A public address is accepted (a literal: no DNS needed here).
    expect((await call('POST', '/project', fx.token, { url: 'http://93.184.215.14/' })).status).toBe(201);
  });

  it("refuses a scenario website the server's address policy refuses, naming the field", async () => {
    const actions = [{ type: 'goto', url: '/' }];
    for (const website of ['http://127.0.0.1:8080/', 'http://10.1.2.3/admin']) {
      const answer = await call('POST', '/scenarios', fx.token, { website, actions });
      const reason = await urlRefusal({ allowPrivate: false }, website, new Map());
      expect({ status: answer.status, body: answer.json }, website).toEqual({ status: 400, body: { detail: `website: ${reason}` } });
    }
    expect((await call('POST', '/scenarios', fx.token, { website: 'http://93.184.215.14/', actions })).status).toBe(201);
  });
});
