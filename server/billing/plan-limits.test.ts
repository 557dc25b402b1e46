import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyticsSchema, type AnalyticsResult } from '../../common/audits';
import { eventKindSchema } from '../../common/projects';
import { PLAN_LIMIT_TEXTS } from '../../common/plan-limits';
import { LIFETIME_PRO_LIMITS, PLAN_LIMITS } from '../../common/plans';
import { freshDatabase, type FreshDatabase } from '../testing/fresh-database';
import { apiCaller, rawRequest, signUp } from '../testing/http';
import { startTestServer } from '../testing/test-server';

type Server = Awaited<ReturnType<typeof startTestServer>>;

// Every plan limit on a server whose unsubscribed accounts are Basic and have no API plan of their own: each
// refusal is the plan's 403 with its exact detail, `plan_limit` and `tier`; creations racing each other never pass
// the limit; once the account holds an active Pro subscription the same actions go through.

let root: string;
let database: FreshDatabase;
let db: pg.Pool;
let server: Server;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'vibeeval-plan-'));
  database = await freshDatabase();
  server = await startTestServer({
    DATABASE_URL: database.url,
    VIBEEVAL_DATA_DIR: join(root, 'data'),
    VIBEEVAL_SCAN_CONCURRENCY: '0',
    VIBEEVAL_SCENARIO_CONCURRENCY: '0',
    VIBEEVAL_UNSUBSCRIBED_TIER: 'basic',
    VIBEEVAL_API_PLAN: '',
  });
  db = new pg.Pool({ connectionString: database.url, max: 2 });
}, 120_000);

afterAll(async () => {
  await db?.end();
  await server?.stop();
  await database?.drop();
  if (root) await rm(root, { recursive: true, force: true });
});

const call = apiCaller(() => server.origin);

const refusal = (plan_limit: string, detail: string) => ({ status: 403, body: { detail, plan_limit, tier: 'basic' } });
const answerOf = (answer: { status: number; json: unknown }) => ({ status: answer.status, body: answer.json });

const SCHEDULE = { hour: 9, weekday: 1, timezone: 'UTC' };
const scenarioBody = (n: number) => ({ website: 'http://127.0.0.1:9/', actions: [{ type: 'goto', url: `/page-${n}` }], summarized_actions: `Scenario ${n}` });

/** An active local Pro subscription around now, as the billing routes write it; the gate reads it within 1 s. */
async function subscribePro(userId: string, priceId = 'price_local_pro_month') {
  await db.query(
    `insert into subscriptions (id, user_id, provider, status, price_id, current_period_start, current_period_end)
     values ($1, $2, 'local', 'active', $3, now() - interval '1 day', now() + interval '29 days')`,
    [`sub_local_test_${userId.slice(0, 8)}`, userId, priceId],
  );
  await new Promise((resolve) => setTimeout(resolve, 1_100));
}

/** An analytics report's content of a quiet day. */
const ANALYTICS: AnalyticsResult = analyticsSchema.parse({
  kind: 'analytics',
  schemaVersion: 1,
  target: 'http://127.0.0.1:9/',
  generatedAt: '2026-11-24T12:00:00.000Z',
  from: '2026-11-24T00:00:00.000Z',
  to: '2026-11-24T23:59:59.999Z',
  total: 0,
  ignored: 0,
  byKind: Object.fromEntries(eventKindSchema.options.map((kind) => [kind, 0])),
  errors: [],
  topUrls: [],
  distinctUrls: 0,
  perDay: [{ day: '2026-11-24', count: 0, errors: 0 }],
  firstEvent: null,
  lastEvent: null,
  totalIssues: 0,
});

/** A completed analytics report of the user's project, inserted as the report job leaves it, and its signed view link. */
async function completedReport(token: string, userId: string, projectId: string): Promise<{ id: string; exp: string; sig: string; view: string }> {
  const { rows } = await db.query<{ id: string }>(
    `insert into reports (workspace_id, user_id, project_id, type, url, state, content, finished_at) values ($1, $1, $2, 'analytics', 'http://127.0.0.1:9/', 'completed', $3::jsonb, now()) returning id`,
    [userId, projectId, JSON.stringify(ANALYTICS)],
  );
  const id = rows[0]!.id;
  const status = await call(token, 'GET', `/reports/${id}`);
  const view = new URL((status.json as { report_url: string }).report_url);
  return { id, exp: view.searchParams.get('exp')!, sig: view.searchParams.get('sig')!, view: `${view.pathname}${view.search}` };
}

describe('plan limits (Basic, then Pro)', () => {
  it('refuses a third project, a third scenario, API keys, /v1, /mcp, Pro report formats and daily or weekly schedules on Basic; allows them all on Pro', async () => {
    const user = await signUp(server.origin, 'basic');
    expect(answerOf(await call(user.token, 'GET', '/plan_limits'))).toEqual({
      status: 200,
      body: {
        tier: 'basic',
        subscribed: false,
        limits: { projects: 2, scenarios: 2, api_plan: null, report_formats: ['html'], monitor_frequencies: ['off', 'monthly'], seats: 1 },
        used: { projects: 0, scenarios: 0 },
      },
    });
    expect((await call(undefined, 'GET', '/plan_limits')).status).toBe(401);
    const created: string[] = [];
    for (let i = 1; i <= 2; i++) {
      const answer = await call(user.token, 'POST', '/project', { url: `http://127.0.0.1:9/site-${i}` });
      expect(answer.status, answer.text).toBe(201);
      created.push((answer.json as { id: string }).id);
    }
    expect(answerOf(await call(user.token, 'POST', '/project', { url: 'http://127.0.0.1:9/site-3' }))).toEqual(refusal('projects', PLAN_LIMIT_TEXTS.projects('basic', 2)));
    expect(answerOf(await call(user.token, 'POST', '/project', { url: 'http://127.0.0.1:9/site-3' }))).toEqual(
      refusal('projects', 'Your Basic plan includes 2 projects. Upgrade your plan to add more.'),
    );

    for (let i = 1; i <= 2; i++) expect((await call(user.token, 'POST', '/scenarios', scenarioBody(i))).status).toBe(201);
    expect(answerOf(await call(user.token, 'POST', '/scenarios', scenarioBody(3)))).toEqual(
      refusal('scenarios', 'Your Basic plan includes 2 AI browser scenarios. Upgrade your plan to add more.'),
    );
    // What the plan counts is said before it bites (the generate dialog: how many more scenarios fit).
    expect((await call(user.token, 'GET', '/plan_limits')).json).toMatchObject({ used: { projects: 2, scenarios: 2 } });

    const apiRefusal = refusal('api', 'API access is not part of the Basic plan. Upgrade to Pro to use API keys.');
    expect(answerOf(await call(user.token, 'POST', '/api_keys', { name: 'ci' }))).toEqual(apiRefusal);
    const usage = await call(user.token, 'GET', '/api_usage');
    expect({ status: usage.status, plan: (usage.json as { plan: unknown }).plan, limit: (usage.json as { limit: unknown }).limit }).toEqual({
      status: 200,
      plan: null,
      limit: null,
    });

    expect(answerOf(await call(user.token, 'PUT', `/project/${created[0]}/monitoring`, { frequency: 'daily', ...SCHEDULE }))).toEqual(
      refusal('monitor_frequency', 'A daily schedule is not part of the Basic plan (monthly only). Upgrade to Pro for daily and weekly monitoring.'),
    );
    expect(answerOf(await call(user.token, 'PUT', `/project/${created[0]}/monitoring`, { frequency: 'weekly', ...SCHEDULE }))).toEqual(
      refusal('monitor_frequency', PLAN_LIMIT_TEXTS.monitor_frequency('basic', 'weekly')),
    );
    // 'Monthly Monitoring' (the Basic card): the first Monday of each month.
    const monthly = await call(user.token, 'PUT', `/project/${created[0]}/monitoring`, { frequency: 'monthly', ...SCHEDULE });
    expect(monthly.status, monthly.text).toBe(200);
    expect(new Date((monthly.json as { next_run_at: string }).next_run_at).getUTCDate()).toBeLessThanOrEqual(7);

    const report = await completedReport(user.token, user.id, created[0]!);
    const exportOf = (format: string) => call(undefined, 'GET', `/reports/${report.id}/export/${format}?exp=${report.exp}&sig=${encodeURIComponent(report.sig)}`);
    expect(answerOf(await exportOf('json'))).toEqual(
      refusal('report_format', 'JSON reports are not part of the Basic plan (HTML only). Upgrade to Pro for PDF, CSV, JSON and SARIF.'),
    );
    expect(answerOf(await exportOf('pdf'))).toEqual(refusal('report_format', PLAN_LIMIT_TEXTS.report_format('basic', 'pdf')));
    expect((await exportOf('csv')).status).toBe(403);
    expect((await exportOf('html')).status).toBe(200);
    const preview = await call(undefined, 'GET', `/report-preview?signed_url=${encodeURIComponent(report.view)}`);
    expect(preview.status).toBe(200);
    expect(preview.text).toContain('/export/html?');
    expect(preview.text).not.toMatch(/\/export\/(pdf|csv|json)\?/);

    await subscribePro(user.id);

    expect((await call(user.token, 'POST', '/project', { url: 'http://127.0.0.1:9/site-3' })).status).toBe(201);
    expect((await call(user.token, 'POST', '/scenarios', scenarioBody(3))).status).toBe(201);
    const key = await call(user.token, 'POST', '/api_keys', { name: 'ci' });
    expect(key.status, key.text).toBe(201);
    expect((await call((key.json as { key: string }).key, 'GET', '/v1/projects')).status).toBe(200);
    expect((await call(user.token, 'PUT', `/project/${created[0]}/monitoring`, { frequency: 'daily', ...SCHEDULE })).status).toBe(200);
    const json = await exportOf('json');
    expect({ status: json.status, kind: (JSON.parse(json.text) as { kind: string }).kind }).toEqual({ status: 200, kind: 'analytics' });
    const proPreview = await call(undefined, 'GET', `/report-preview?signed_url=${encodeURIComponent(report.view)}`);
    expect(proPreview.text).toMatch(/\/export\/json\?/);
    expect(answerOf(await call(user.token, 'GET', '/plan_limits'))).toEqual({
      status: 200,
      body: {
        tier: 'pro',
        subscribed: true,
        limits: {
          projects: null,
          scenarios: 13,
          api_plan: 'pro',
          report_formats: ['html', 'pdf', 'csv', 'json', 'sarif'],
          monitor_frequencies: ['off', 'daily', 'weekly', 'monthly'],
          seats: 5,
        },
        used: { projects: 3, scenarios: 3 },
      },
    });
    const proUsage = await call(user.token, 'GET', '/api_usage');
    expect((proUsage.json as { plan: string; limit: number }).plan).toBe('pro');
    expect((proUsage.json as { limit: number }).limit).toBe(1000);
  }, 30_000);

  it('reads a one-time Pro price as Lifetime Pro: the Pro limits with its own seats, as the pricing section sells it', async () => {
    await db.query(
      `insert into billing_plans (price_id, product_id, product_name, product_description, unit_amount, currency, interval, provider, position)
       values ('price_test_lifetime', 'prod_test_lifetime', 'Lifetime Pro', null, 14900, 'usd', null, 'local', 4) on conflict do nothing`,
    );
    const user = await signUp(server.origin, 'lifetime');
    await subscribePro(user.id, 'price_test_lifetime');
    expect((await call(user.token, 'GET', '/plan_limits')).json).toMatchObject({
      tier: 'pro',
      limits: { seats: LIFETIME_PRO_LIMITS.seats, scenarios: PLAN_LIMITS.pro.scenarios, report_formats: [...PLAN_LIMITS.pro.reportFormats] },
    });
    expect(LIFETIME_PRO_LIMITS.seats).toBe(10);
  }, 20_000);

  it('refuses /v1 and /mcp with the plan 403 once the subscription ends, before counting the request', async () => {
    const user = await signUp(server.origin, 'lapsed');
    await subscribePro(user.id);
    const key = ((await call(user.token, 'POST', '/api_keys', { name: 'agent' })).json as { key: string }).key;
    expect((await call(key, 'GET', '/v1/projects')).status).toBe(200);
    await db.query(`update subscriptions set status = 'canceled' where user_id = $1`, [user.id]);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await new Promise((resolve) => setTimeout(resolve, 300)); // the meter's last write of the one admitted request
    const before = ((await call(user.token, 'GET', '/api_usage')).json as { used_today: number }).used_today;
    const apiRefusal = refusal('api', PLAN_LIMIT_TEXTS.api('basic'));
    expect(answerOf(await call(key, 'GET', '/v1/projects'))).toEqual(apiRefusal);
    expect(answerOf(await call(key, 'POST', '/v1/scans', { url: 'http://127.0.0.1:9/' }))).toEqual(apiRefusal);
    const mcp = await rawRequest(server.origin, {
      method: 'POST',
      path: '/mcp',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
    });
    expect(answerOf(mcp)).toEqual(apiRefusal);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const after = await call(user.token, 'GET', '/api_usage');
    expect((after.json as { used_today: number; plan: unknown }).used_today).toBe(before);
    expect((after.json as { plan: unknown }).plan).toBeNull();
    // Keys stay listable and revocable on a plan without API access.
    expect((await call(user.token, 'GET', '/api_keys')).status).toBe(200);
  }, 20_000);

  it('lets no more than the limit through when creations race (count and insert under one per-user lock)', async () => {
    const user = await signUp(server.origin, 'racer');
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => call(user.token, 'POST', '/project', { url: `http://127.0.0.1:9/race-${i}` })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 201, 403, 403, 403, 403]);
    const scenarios = await Promise.all(Array.from({ length: 6 }, (_, i) => call(user.token, 'POST', '/scenarios', scenarioBody(i))));
    expect(scenarios.map((answer) => answer.status).sort()).toEqual([201, 201, 403, 403, 403, 403]);
    const { rows } = await db.query<{ projects: number; scenarios: number }>(
      `select (select count(*)::int from projects where user_id = $1) as projects, (select count(*)::int from scenarios where user_id = $1) as scenarios`,
      [user.id],
    );
    expect(rows[0]).toEqual({ projects: 2, scenarios: 2 });
  }, 20_000);
});
