import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { expect } from 'vitest';
import { callApi, signUp, type RawAnswer } from '../testing/http';
import { startTestServer } from '../testing/test-server';
import { userTables } from './deletion';
import { until } from '../testing/until';

// What the export and deletion tests share: a real server (no scenario worker), a one-page local site to scan,
// a direct database pool, and an account with one of everything.

export type User = Awaited<ReturnType<typeof signUp>>;

export interface AccountHarness {
  server: Awaited<ReturnType<typeof startTestServer>>;
  siteUrl: string;
  pool: pg.Pool;
  call(user: { token: string }, method: string, path: string, body?: unknown): Promise<RawAnswer>;
  /** A user with one of everything: a scanned project (report, events), a scenario and its queued run, a key, a webhook, a subscription. */
  fullAccount(label: string): Promise<Awaited<ReturnType<typeof fullAccountOf>>>;
  /** Rows of the user in every table with a user_id, and in users. */
  rowsOf(userId: string): Promise<Record<string, number>>;
  stop(): Promise<void>;
}

/** Text only the full account's project holds (its test credentials): found in an export, it is a leak. */
export const SECRET_MARKER = 'account-secret-marker-5d1e';

interface Context {
  server: AccountHarness['server'];
  siteUrl: string;
  pool: pg.Pool;
  call: AccountHarness['call'];
}

async function fullAccountOf({ server, siteUrl, pool, call }: Context, label: string) {
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
  // Finished, so its job writes nothing more (its events) while the tests count the account's rows.
  const reportUrl = await until('the finished report', async () => {
    const status = (await call(user, 'GET', `/reports/${report.id}`)).json as { state: string; report_url: string | null };
    return status.state === 'completed' && status.report_url ? status.report_url : undefined;
  });
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

export async function startAccountHarness(): Promise<AccountHarness> {
  const site = http.createServer((req, res) => {
    if (req.method === 'POST') return void res.writeHead(200).end('ok');
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><html lang="en"><title>Shop</title><h1>Shop</h1></html>');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  const server = await startTestServer({ VIBEEVAL_SCAN_RENDER: 'false', VIBEEVAL_SCAN_RATE: '0', VIBEEVAL_SCENARIO_CONCURRENCY: '0' });
  const pool = new pg.Pool({ connectionString: server.databaseUrl, max: 2 });
  const call: AccountHarness['call'] = (user, method, path, body) => callApi(server.origin, method, path, { token: user.token, body });
  const context = { server, siteUrl, pool, call };
  return {
    ...context,
    fullAccount: (label) => fullAccountOf(context, label),
    async rowsOf(userId) {
      const counts: Record<string, number> = {};
      for (const table of await userTables(pool)) {
        counts[table] = Number((await pool.query<{ n: string }>(`select count(*) as n from "${table}" where user_id = $1`, [userId])).rows[0]!.n);
      }
      counts.users = Number((await pool.query<{ n: string }>('select count(*) as n from users where id = $1', [userId])).rows[0]!.n);
      return counts;
    },
    async stop() {
      await pool.end();
      await server.stop();
      await new Promise<void>((resolve) => site.close(() => resolve()));
    },
  };
}
