import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_ERRORS } from '../../common/preferences';
import { rawRequest, signUp } from '../testing/http';
import { deleteAccount, userTables } from './deletion';
import { startAccountHarness, type AccountHarness } from './testing';

// DELETE /account on a real server: the account's own email confirms; then every row of the user in every table
// with a user_id is gone in one transaction, sessions, keys and signed report links are dead, billing is closed
// first, and another user's records are untouched.

let h: AccountHarness;
beforeAll(async () => {
  h = await startAccountHarness();
}, 60_000);
afterAll(async () => {
  await h?.stop();
});

describe('DELETE /account', () => {
  it('refuses another email than the account\'s own and deletes nothing', async () => {
    const user = await signUp(h.server.origin, 'keep');
    const other = await signUp(h.server.origin, 'keep-other');
    for (const email of [other.email, 'nobody@example.com', `x${user.email}`]) {
      const answer = await h.call(user, 'DELETE', '/account', { email });
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual({ detail: ACCOUNT_ERRORS.confirmationMismatch });
    }
    expect(((await h.call(user, 'DELETE', '/account', {})).json as { detail: string }).detail).toContain('email is required');
    expect((await h.call(user, 'GET', '/preferences')).status).toBe(200);
    expect((await h.call(other, 'GET', '/preferences')).status).toBe(200);
  });

  it('deletes every row of the user in every table, revokes sessions and keys, kills report links, and leaves another user untouched', async () => {
    const doomed = await h.fullAccount('doomed');
    const kept = await h.fullAccount('kept');
    expect((await rawRequest(h.server.origin, { method: 'GET', path: '/v1/scans', headers: { authorization: `Bearer ${doomed.key.key}` } })).status).toBe(200);
    expect((await fetch(doomed.reportUrl)).status).toBe(200);
    const sessions = (await h.pool.query<{ id: string }>('select id from auth_sessions where user_id = $1', [doomed.user.id])).rows.map((row) => row.id);
    expect(sessions.length).toBeGreaterThan(0);
    expect(Number((await h.pool.query<{ n: string }>('select count(*) as n from refresh_tokens where session_id = any($1::uuid[])', [sessions])).rows[0]!.n)).toBeGreaterThan(0);
    const before = await h.rowsOf(doomed.user.id);
    for (const table of ['projects', 'scans', 'events', 'reports', 'scenarios', 'scenario_runs', 'api_keys', 'webhooks', 'subscriptions', 'billing_customers', 'user_preferences', 'auth_sessions', 'users']) {
      expect(before[table], table).toBeGreaterThan(0);
    }
    const keptBefore = await h.rowsOf(kept.user.id);

    const answer = await h.call(doomed.user, 'DELETE', '/account', { email: ` ${doomed.user.email.toUpperCase()} ` });
    expect(answer.status, answer.text).toBe(204);

    const after = await h.rowsOf(doomed.user.id);
    expect(Object.entries(after).filter(([, n]) => n > 0)).toEqual([]);
    expect(Number((await h.pool.query<{ n: string }>('select count(*) as n from refresh_tokens where session_id = any($1::uuid[])', [sessions])).rows[0]!.n)).toBe(0);
    expect(await h.rowsOf(kept.user.id)).toEqual(keptBefore);
    // The signed report link was valid; its report is gone, so it answers 404.
    const link = await fetch(doomed.reportUrl);
    expect(link.status).toBe(404);
    expect(await link.text()).toBe('This report is no longer available.');
    // The key was cached as verified a moment ago: revoked at once all the same.
    expect((await rawRequest(h.server.origin, { method: 'GET', path: '/v1/scans', headers: { authorization: `Bearer ${doomed.key.key}` } })).status).toBe(401);
    // A verified session is trusted for 2 s (server/auth/service.ts, as a sign-out on another instance); then refused.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    expect((await h.call(doomed.user, 'GET', '/preferences')).status).toBe(401);
    // The other account works as before.
    expect((await h.call(kept.user, 'GET', `/project/${kept.projectId}`)).status).toBe(200);
    expect((await fetch(kept.reportUrl)).status).toBe(200);
    expect((await rawRequest(h.server.origin, { method: 'GET', path: '/v1/scans', headers: { authorization: `Bearer ${kept.key.key}` } })).status).toBe(200);
  }, 30_000);

  it('finds every table that holds a user_id, and cancels billing first: a failure there deletes nothing', async () => {
    const tables = await userTables(h.pool);
    for (const table of ['auth_sessions', 'one_time_tokens', 'user_identities', 'projects', 'scans', 'events', 'reports', 'scenarios', 'scenario_runs', 'api_keys', 'api_usage', 'webhooks', 'webhook_deliveries', 'continuous_builds', 'continuous_usage', 'subscriptions', 'billing_customers', 'user_preferences']) {
      expect(tables, table).toContain(table);
    }
    const user = await signUp(h.server.origin, 'billing-close');
    await h.pool.query(`insert into subscriptions (id, user_id, provider, status, price_id, current_period_start, current_period_end) values ($1, $2, 'local', 'active', 'price_local_basic_month', now(), now() + interval '1 month')`, [`sub_local_close_${Date.now()}`, user.id]);
    await expect(deleteAccount(h.pool, user.id, () => Promise.reject(new Error('provider down')))).rejects.toThrow('provider down');
    expect((await h.rowsOf(user.id)).users).toBe(1);
    expect((await h.rowsOf(user.id)).subscriptions).toBe(1);
    const closed: string[] = [];
    const result = await deleteAccount(h.pool, user.id, async (id) => void closed.push(id));
    expect(closed).toEqual([user.id]);
    expect(result.deleted).toMatchObject({ subscriptions: 1, users: 1 });
    expect(Object.values(await h.rowsOf(user.id)).every((n) => n === 0)).toBe(true);
  });
});
