import http from 'node:http';
import type { AddressInfo } from 'node:net';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_ERRORS, ACCOUNT_EXPORT_SECTIONS } from '../../common/preferences';
import { embeddedDatabaseUrl } from '../mcp/testing';
import { rawRequest, signUp, type RawAnswer } from '../testing/http';
import { startTestServer } from '../testing/test-server';
import { deleteAccount, userTables } from './deletion';
import { EXPORT_SOURCES } from './export';

// The account's whole life on a real server: the export (its head, every section, nothing secret, streamed so a
// large account does not load at once) and the deletion (the email as confirmation, every row of the user in every
// table with a user_id gone in one transaction, sessions, keys and report links dead, another user untouched).

type User = Awaited<ReturnType<typeof signUp>>;
let server: Awaited<ReturnType<typeof startTestServer>>;
let site: http.Server;
let siteUrl: string;
let pool: pg.Pool;

const call = (user: { token: string }, method: string, path: string, body?: unknown): Promise<RawAnswer> =>
  rawRequest(server.origin, {
    method,
    path,
    // With its length: node:http frames no body of a DELETE by itself.
    headers: { authorization: `Bearer ${user.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(JSON.stringify(body))) }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

async function until<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 15_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const SECRET_MARKER = 'account-secret-marker-5d1e';

/** A user with one of everything: a scanned project (report, events), a scenario and its queued run, a key, a webhook, a subscription. */
async function fullAccount(label: string) {
  const user = await signUp(server.origin, label);
  const project = (await call(user, 'POST', '/project', { url: siteUrl, num_pages: 1, secret_instruction: `user: a / pass: ${SECRET_MARKER}` })).json as { id: string };
  expect((await call(user, 'PATCH', `/project_test/${project.id}`)).status).toBe(200);
  const scan = await until('the scan', async () => {
    const view = (await call(user, 'GET', `/project/${project.id}/scan`)).json as { scan?: { id: string; state: string } | null };
    return view.scan?.state === 'completed' ? view.scan : undefined;
  });
  const report = await until('the report link', async () => {
    const list = (await call(user, 'GET', '/report_links/recent')).json as { id: string }[];
    return list[0];
  });
  const reportUrl = ((await call(user, 'GET', `/reports/${report.id}`)).json as { report_url: string }).report_url;
  const scenario = (await call(user, 'POST', '/scenarios', { project_id: project.id, website: siteUrl, actions: [{ type: 'goto', url: '/' }] })).json as { id: string };
  expect((await call(user, 'POST', `/scenario/${scenario.id}/run`)).status).toBeLessThan(300);
  const key = (await call(user, 'POST', '/api_keys', { name: `${label} key` })).json as { id: string; key: string };
  const webhook = (await call(user, 'POST', '/webhook', { url: `${siteUrl}hook` })).json as { id: string; secret: string };
  await pool.query(
    `insert into subscriptions (id, user_id, provider, status, price_id, current_period_start, current_period_end)
     values ($1, $2, 'local', 'active', 'price_local_pro_month', now(), now() + interval '1 month')`,
    [`sub_local_${label}_${Date.now()}`, user.id],
  );
  await pool.query(`insert into billing_customers (user_id, provider, customer_id) values ($1, 'local', $2)`, [user.id, `cus_local_${user.id}`]);
  return { user, projectId: project.id, scanId: scan.id, reportId: report.id, reportUrl, scenarioId: scenario.id, key, webhook };
}

/** Rows of the user in every table with a user_id, and in users. */
async function rowsOf(userId: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of await userTables(pool)) {
    counts[table] = Number((await pool.query<{ n: string }>(`select count(*) as n from "${table}" where user_id = $1`, [userId])).rows[0]!.n);
  }
  counts.users = Number((await pool.query<{ n: string }>('select count(*) as n from users where id = $1', [userId])).rows[0]!.n);
  return counts;
}

/** A function that runs a full garbage collection (V8's gc, reached without a command-line flag). */
const collectGarbage: () => void = (() => {
  v8.setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();
const liveHeap = () => {
  collectGarbage();
  return process.memoryUsage().heapUsed;
};

/**
 * Downloads the export as a stream, keeping only its size. Halfway the reader stops taking bytes: the server fills
 * the socket's buffers and waits (backpressure); what it holds then, after a full garbage collection, is measured
 * against the heap before the request. The server runs in this process, so its heap is this heap.
 */
async function streamedExport(user: User): Promise<{ bytes: number; heldWhilePaused: number }> {
  const base = liveHeap();
  const response = await fetch(`${server.origin}/account/export`, { headers: { authorization: `Bearer ${user.token}` } });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  let bytes = 0;
  let held = 0;
  let paused = false;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (!paused && bytes > 2_000_000) {
      paused = true;
      await new Promise((resolve) => setTimeout(resolve, 400));
      held = liveHeap() - base;
    }
  }
  if (!paused) held = liveHeap() - base;
  return { bytes, heldWhilePaused: held };
}

beforeAll(async () => {
  site = http.createServer((req, res) => {
    if (req.method === 'POST') return void res.writeHead(200).end('ok');
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><html lang="en"><title>Shop</title><h1>Shop</h1></html>');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  server = await startTestServer({ VIBEEVAL_SCAN_RENDER: 'false', VIBEEVAL_SCAN_RATE: '0', VIBEEVAL_SCENARIO_CONCURRENCY: '0' });
  pool = new pg.Pool({ connectionString: await embeddedDatabaseUrl(server.dataDir), max: 2 });
}, 60_000);
afterAll(async () => {
  await pool?.end();
  await server?.stop();
  await new Promise<void>((resolve) => site.close(() => resolve()));
});

describe('GET /account/export', () => {
  it('downloads a JSON file that opens with the email and the two settings and holds every section, nothing secret', async () => {
    const a = await fullAccount('export');
    const other = await fullAccount('export-other');
    await call(a.user, 'PATCH', '/preferences', { email_notifications: false });
    const answer = await call(a.user, 'GET', '/account/export');
    expect(answer.status).toBe(200);
    expect(answer.contentType).toContain('application/json');
    const document = answer.json as Record<string, unknown[]> & { email: string };
    expect(Object.keys(document)).toEqual(['email', 'email_notifications', 'webhook_notifications', 'exported_at', ...ACCOUNT_EXPORT_SECTIONS]);
    expect(document).toMatchObject({ email: a.user.email, email_notifications: false, webhook_notifications: true });
    const ids = (section: string) => (document[section] as { id: string }[]).map((row) => row.id);
    expect(ids('projects')).toEqual([a.projectId]);
    expect(ids('scans')).toEqual([a.scanId]);
    expect(ids('reports')).toEqual([a.reportId]);
    expect(ids('scenarios')).toEqual([a.scenarioId]);
    expect(ids('scenario_runs')).toHaveLength(1);
    expect(ids('webhooks')).toEqual([a.webhook.id]);
    expect(document.api_keys).toEqual([expect.objectContaining({ id: a.key.id, name: 'export key', last_four: a.key.key.slice(-4) })]);
    expect(document.subscriptions).toEqual([expect.objectContaining({ status: 'active', price_id: 'price_local_pro_month' })]);
    expect((document.events as { scan_id: string | null }[]).some((event) => event.scan_id === a.scanId)).toBe(true);
    for (const secret of [SECRET_MARKER, a.webhook.secret, a.key.key, 'secret_instruction_sealed', 'secret_sealed', 'key_hash', '"screenshot"', other.projectId, other.user.email]) {
      expect(answer.text.includes(secret), secret).toBe(false);
    }
  });

  it('the download is an attachment named vibeeval-data-<date>.json', async () => {
    const user = await signUp(server.origin, 'export-name');
    const response = await fetch(`${server.origin}/account/export`, { headers: { authorization: `Bearer ${user.token}` } });
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="vibeeval-data-${new Date().toISOString().slice(0, 10)}.json"`);
    const empty = (await response.json()) as Record<string, unknown>;
    expect(empty).toMatchObject({ email: user.email, email_notifications: true, webhook_notifications: false, projects: [], events: [] });
  });

  it('no exported column looks like a secret', async () => {
    for (const source of Object.values(EXPORT_SOURCES)) {
      const { rows } = await pool.query<{ column_name: string }>('select column_name from information_schema.columns where table_schema = current_schema() and table_name = $1', [source.table]);
      const exported = rows.map((row) => row.column_name).filter((name) => !source.omit.includes(name));
      expect(exported.length, source.table).toBeGreaterThan(2);
      expect(exported.filter((name) => /secret|sealed|key_hash|password|refresh_token|token_hash|screenshot|trace/.test(name)), source.table).toEqual([]);
    }
  });

  it('streams a large account: thousands of events, memory bounded like a small account', async () => {
    const small = await signUp(server.origin, 'export-small');
    const large = await signUp(server.origin, 'export-large');
    const EVENTS = 6000;
    const filler = 'x'.repeat(2000);
    await pool.query(
      `insert into events (user_id, event_name, url, extra) select $1, 'page_load', 'https://shop.example/' || g, jsonb_build_object('n', g, 'filler', $2::text) from generate_series(1, $3) g`,
      [large.id, filler, EVENTS],
    );
    await pool.query(`insert into events (user_id, event_name, url, extra) select $1, 'page_load', 'https://shop.example/' || g, jsonb_build_object('n', g) from generate_series(1, 10) g`, [small.id]);
    await streamedExport(small); // warm-up: the route's code paths compiled before measuring
    const smallRun = await streamedExport(small);
    const largeRun = await streamedExport(large);
    // The reference: what a handler that read the whole account before answering would hold (its rows as objects).
    const before = liveHeap();
    const whole = (await pool.query('select to_jsonb(e) as row from events e where user_id = $1', [large.id])).rows;
    const loaded = liveHeap() - before;
    expect(whole).toHaveLength(EVENTS);
    const mb = (n: number) => `${(n / 1e6).toFixed(2)} MB`;
    console.log(
      `account export: small account ${smallRun.bytes} B, held ${mb(smallRun.heldWhilePaused)}; large (${EVENTS} events) ${mb(largeRun.bytes)}, held while paused ${mb(largeRun.heldWhilePaused)}; ` +
        `the large account's events loaded at once ${mb(loaded)} (ratio held/loaded ${(largeRun.heldWhilePaused / loaded).toFixed(3)})`,
    );
    expect(largeRun.bytes).toBeGreaterThan(EVENTS * 2000);
    // Held at once: a page of rows and the socket's buffers, a small part of the account loaded whole.
    expect(largeRun.heldWhilePaused).toBeLessThan(loaded / 3);
    // Complete and in order, every event once.
    const parsed = (await (await fetch(`${server.origin}/account/export`, { headers: { authorization: `Bearer ${large.token}` } })).json()) as { events: { extra: { n: number } }[] };
    expect(parsed.events).toHaveLength(EVENTS);
    expect(new Set(parsed.events.map((event) => event.extra.n)).size).toBe(EVENTS);
  }, 30_000);
});

describe('DELETE /account', () => {
  it('refuses another email than the account\'s own and deletes nothing', async () => {
    const user = await signUp(server.origin, 'keep');
    const other = await signUp(server.origin, 'keep-other');
    for (const email of [other.email, 'nobody@example.com', `x${user.email}`]) {
      const answer = await call(user, 'DELETE', '/account', { email });
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual({ detail: ACCOUNT_ERRORS.confirmationMismatch });
    }
    expect(((await call(user, 'DELETE', '/account', {})).json as { detail: string }).detail).toContain('email is required');
    expect((await call(user, 'GET', '/preferences')).status).toBe(200);
    expect((await call(other, 'GET', '/preferences')).status).toBe(200);
  });

  it('deletes every row of the user in every table, revokes sessions and keys, kills report links, and leaves another user untouched', async () => {
    const doomed = await fullAccount('doomed');
    const kept = await fullAccount('kept');
    expect((await rawRequest(server.origin, { method: 'GET', path: '/v1/scans', headers: { authorization: `Bearer ${doomed.key.key}` } })).status).toBe(200);
    expect((await fetch(doomed.reportUrl)).status).toBe(200);
    const sessions = (await pool.query<{ id: string }>('select id from auth_sessions where user_id = $1', [doomed.user.id])).rows.map((row) => row.id);
    expect(sessions.length).toBeGreaterThan(0);
    expect(Number((await pool.query<{ n: string }>('select count(*) as n from refresh_tokens where session_id = any($1::uuid[])', [sessions])).rows[0]!.n)).toBeGreaterThan(0);
    const before = await rowsOf(doomed.user.id);
    for (const table of ['projects', 'scans', 'events', 'reports', 'scenarios', 'scenario_runs', 'api_keys', 'webhooks', 'subscriptions', 'billing_customers', 'user_preferences', 'auth_sessions', 'users']) {
      expect(before[table], table).toBeGreaterThan(0);
    }
    const keptBefore = await rowsOf(kept.user.id);

    const answer = await call(doomed.user, 'DELETE', '/account', { email: ` ${doomed.user.email.toUpperCase()} ` });
    expect(answer.status, answer.text).toBe(204);

    const after = await rowsOf(doomed.user.id);
    expect(Object.entries(after).filter(([, n]) => n > 0)).toEqual([]);
    expect(Number((await pool.query<{ n: string }>('select count(*) as n from refresh_tokens where session_id = any($1::uuid[])', [sessions])).rows[0]!.n)).toBe(0);
    expect(await rowsOf(kept.user.id)).toEqual(keptBefore);
    // The signed report link was valid; its report is gone, so it answers 404.
    const link = await fetch(doomed.reportUrl);
    expect(link.status).toBe(404);
    expect(await link.text()).toBe('This report is no longer available.');
    // The key was cached as verified a moment ago: revoked at once all the same.
    expect((await rawRequest(server.origin, { method: 'GET', path: '/v1/scans', headers: { authorization: `Bearer ${doomed.key.key}` } })).status).toBe(401);
    // A verified session is trusted for 2 s (server/auth/service.ts, as a sign-out on another instance); then refused.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    expect((await call(doomed.user, 'GET', '/preferences')).status).toBe(401);
    // The other account works as before.
    expect((await call(kept.user, 'GET', `/project/${kept.projectId}`)).status).toBe(200);
    expect((await fetch(kept.reportUrl)).status).toBe(200);
    expect((await rawRequest(server.origin, { method: 'GET', path: '/v1/scans', headers: { authorization: `Bearer ${kept.key.key}` } })).status).toBe(200);
  }, 30_000);

  it('finds every table that holds a user_id, and cancels billing first: a failure there deletes nothing', async () => {
    const tables = await userTables(pool);
    for (const table of ['auth_sessions', 'one_time_tokens', 'user_identities', 'projects', 'scans', 'events', 'reports', 'scenarios', 'scenario_runs', 'api_keys', 'api_usage', 'webhooks', 'webhook_deliveries', 'continuous_builds', 'continuous_usage', 'subscriptions', 'billing_customers', 'user_preferences']) {
      expect(tables, table).toContain(table);
    }
    const user = await signUp(server.origin, 'billing-close');
    await pool.query(`insert into subscriptions (id, user_id, provider, status, price_id, current_period_start, current_period_end) values ($1, $2, 'local', 'active', 'price_local_basic_month', now(), now() + interval '1 month')`, [`sub_local_close_${Date.now()}`, user.id]);
    await expect(deleteAccount(pool, user.id, () => Promise.reject(new Error('provider down')))).rejects.toThrow('provider down');
    expect((await rowsOf(user.id)).users).toBe(1);
    expect((await rowsOf(user.id)).subscriptions).toBe(1);
    const closed: string[] = [];
    const result = await deleteAccount(pool, user.id, async (id) => void closed.push(id));
    expect(closed).toEqual([user.id]);
    expect(result.deleted).toMatchObject({ subscriptions: 1, users: 1 });
    expect(Object.values(await rowsOf(user.id)).every((n) => n === 0)).toBe(true);
  });
});
