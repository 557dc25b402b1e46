import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_ERRORS } from '../../common/preferences';
import { rawRequest, signUp } from '../testing/http';
import { WorkspaceAccess } from '../workspaces/access';
import { workspaceTables } from '../workspaces/records';
import { deleteAccount, userTables } from './deletion';
import { startAccountHarness, type AccountHarness, type User } from './testing';

// DELETE /account on a real server: the account's own email confirms; then its personal workspace and every row of
// the user in every table with a user_id are gone in one transaction, sessions, keys and signed report links are
// dead, billing is closed first, and another user's records are untouched. Workspaces: one it owns alone goes with
// its records; one it owns with others refuses the deletion; what it made in others' workspaces stays there.

let h: AccountHarness;
beforeAll(async () => {
  h = await startAccountHarness();
}, 60_000);
afterAll(async () => {
  await h?.stop();
});

describe('DELETE /account', () => {
  it("refuses another email than the account's own and deletes nothing", async () => {
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
    for (const table of [
      'projects',
      'scans',
      'events',
      'reports',
      'scenarios',
      'scenario_runs',
      'api_keys',
      'webhooks',
      'subscriptions',
      'billing_customers',
      'user_preferences',
      'auth_sessions',
      'users',
    ]) {
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
    // The session was checked a moment ago: refused at once all the same.
    expect((await h.call(doomed.user, 'GET', '/preferences')).status).toBe(401);
    // The other account works as before.
    expect((await h.call(kept.user, 'GET', `/project/${kept.projectId}`)).status).toBe(200);
    expect((await fetch(kept.reportUrl)).status).toBe(200);
    expect((await rawRequest(h.server.origin, { method: 'GET', path: '/v1/scans', headers: { authorization: `Bearer ${kept.key.key}` } })).status).toBe(200);
  }, 30_000);

  it("refuses the deleted account's token at once: GET /projects, POST /project and POST /webhook make no rows", async () => {
    const user = await signUp(h.server.origin, 'gone-at-once');
    // Its session and membership were checked moments ago, so this process keeps them.
    expect((await h.call(user, 'GET', '/projects')).status).toBe(200);
    expect((await h.call(user, 'DELETE', '/account', { email: user.email })).status).toBe(204);
    const tries: [string, string, unknown?][] = [
      ['GET', '/projects'],
      ['POST', '/project', { url: h.siteUrl }],
      ['POST', '/webhook', { url: `${h.siteUrl}hook` }],
      ['GET', '/projects'],
    ];
    for (const [method, path, body] of tries) {
      const answer = await h.call(user, method, path, body);
      expect(answer.status, `${method} ${path}: ${answer.text}`).toBe(401);
    }
    expect(Object.entries(await h.rowsOf(user.id)).filter(([, n]) => n > 0)).toEqual([]);
    const left = await h.pool.query('select 1 from workspaces where id = $1 or owner_id = $1 union all select 1 from workspace_members where user_id = $1', [user.id]);
    expect(left.rowCount).toBe(0);
  });

  it('makes no personal workspace for a local account that no longer exists, even when asked directly', async () => {
    const user = await signUp(h.server.origin, 'gone-direct');
    await deleteAccount(h.pool, user.id);
    const access = new WorkspaceAccess(h.pool);
    await expect(access.ensurePersonal({ id: user.id, email: user.email, source: 'local' })).rejects.toMatchObject({ statusCode: 401 });
    expect((await h.pool.query('select 1 from workspaces where id = $1 union all select 1 from workspace_members where user_id = $1', [user.id])).rowCount).toBe(0);
  });

  it('finds every table that holds a user_id, and cancels billing first: a failure there deletes nothing', async () => {
    const tables = await userTables(h.pool);
    for (const table of [
      'auth_sessions',
      'one_time_tokens',
      'user_identities',
      'projects',
      'scans',
      'events',
      'reports',
      'scenarios',
      'scenario_runs',
      'api_keys',
      'api_usage',
      'webhooks',
      'webhook_deliveries',
      'continuous_builds',
      'continuous_usage',
      'subscriptions',
      'billing_customers',
      'user_preferences',
    ]) {
      expect(tables, table).toContain(table);
    }
    const user = await signUp(h.server.origin, 'billing-close');
    await h.pool.query(
      `insert into subscriptions (id, user_id, provider, status, price_id, current_period_start, current_period_end) values ($1, $2, 'local', 'active', 'price_local_basic_month', now(), now() + interval '1 month')`,
      [`sub_local_close_${Date.now()}`, user.id],
    );
    await expect(deleteAccount(h.pool, user.id, () => Promise.reject(new Error('provider down')))).rejects.toThrow('provider down');
    expect((await h.rowsOf(user.id)).users).toBe(1);
    expect((await h.rowsOf(user.id)).subscriptions).toBe(1);
    const closed: string[] = [];
    const result = await deleteAccount(h.pool, user.id, async (id) => void closed.push(id));
    expect(closed).toEqual([user.id]);
    expect(result.deleted).toMatchObject({ subscriptions: 1, users: 1 });
    expect(Object.values(await h.rowsOf(user.id)).every((n) => n === 0)).toBe(true);
  });

  describe('an account in workspaces: deletion and export', () => {
    /** A shared workspace of `owner`'s, which each of `members` joined through an invitation. */
    async function workspaceOf(owner: User, name: string, ...members: User[]): Promise<string> {
      const created = await h.call(owner, 'POST', '/workspaces', { name });
      expect(created.status, created.text).toBe(201);
      const workspaceId = (created.json as { id: string }).id;
      for (const member of members) {
        // The invitation's link is in a mail of the outbox; the test makes its own secret instead.
        const token = `vbi_${randomBytes(32).toString('base64url')}`;
        await h.pool.query(`insert into workspace_invitations (workspace_id, email, invited_by, token_hash, expires_at) values ($1, $2, $3, $4, now() + interval '1 hour')`, [
          workspaceId,
          member.email,
          owner.id,
          createHash('sha256').update(token).digest('hex'),
        ]);
        const joined = await h.call(member, 'POST', '/invitations/accept', { token });
        expect(joined.status, joined.text).toBe(200);
      }
      return workspaceId;
    }

    /** A project `maker` made in the workspace (placed there directly: the project routes' scope is not tested here). */
    async function projectIn(maker: User, workspaceId: string): Promise<string> {
      const id = ((await h.call(maker, 'POST', '/project', { url: h.siteUrl })).json as { id: string }).id;
      await h.pool.query('update projects set workspace_id = $2 where id = $1', [id, workspaceId]);
      await h.pool.query('update events set workspace_id = $2 where project_id = $1', [id, workspaceId]);
      return id;
    }

    async function rowsIn(workspaceId: string): Promise<number> {
      let n = 0;
      for (const table of [...(await workspaceTables(h.pool)), 'workspace_members', 'workspace_invitations']) {
        n += Number((await h.pool.query<{ n: string }>(`select count(*) as n from "${table}" where workspace_id = $1`, [workspaceId])).rows[0]!.n);
      }
      return n + Number((await h.pool.query<{ n: string }>('select count(*) as n from workspaces where id = $1', [workspaceId])).rows[0]!.n);
    }

    it('refuses while the account owns a shared workspace with other members, and deletes nothing', async () => {
      const owner = await h.fullAccount('ws-owner');
      const colleague = await signUp(h.server.origin, 'ws-colleague');
      const agency = await workspaceOf(owner.user, 'Agency', colleague);
      const before = await h.rowsOf(owner.user.id);
      const refused = await h.call(owner.user, 'DELETE', '/account', { email: owner.user.email });
      expect(refused.status).toBe(409);
      expect(refused.json).toEqual({ detail: 'Transfer ownership of Agency or delete it before deleting your account' });
      expect(await h.rowsOf(owner.user.id)).toEqual(before);
      const subscription = await h.pool.query<{ status: string }>('select status from subscriptions where user_id = $1', [owner.user.id]);
      expect(subscription.rows).toEqual([{ status: 'active' }]);
      // Once another member owns it, the account goes and the workspace stays with its new owner.
      expect((await h.call(owner.user, 'POST', `/workspace/${agency}/transfer`, { user_id: colleague.id })).status).toBe(200);
      expect((await h.call(owner.user, 'DELETE', '/account', { email: owner.user.email })).status).toBe(204);
      expect((await h.call(colleague, 'GET', `/workspace/${agency}/members`)).json).toEqual([expect.objectContaining({ user_id: colleague.id, role: 'owner' })]);
    }, 60_000);

    it("deletes the personal workspace and the shared one it owns alone, and keeps what it made in others' workspaces", async () => {
      const doomed = await h.fullAccount('ws-doomed');
      const host = await signUp(h.server.origin, 'ws-host');
      const alone = await workspaceOf(doomed.user, 'Solo');
      await projectIn(doomed.user, alone);
      const hosted = await workspaceOf(host, 'Host team', doomed.user);
      const madeThere = await projectIn(doomed.user, hosted);
      expect(await rowsIn(doomed.user.id)).toBeGreaterThan(10);

      const answer = await h.call(doomed.user, 'DELETE', '/account', { email: doomed.user.email });
      expect(answer.status, answer.text).toBe(204);
      expect(await rowsIn(doomed.user.id)).toBe(0);
      expect(await rowsIn(alone)).toBe(0);
      // The host's workspace keeps the project the deleted member made; the membership is gone.
      expect((await h.pool.query('select 1 from projects where id = $1 and workspace_id = $2', [madeThere, hosted])).rowCount).toBe(1);
      expect((await h.call(host, 'GET', `/workspace/${hosted}/members`)).json).toEqual([expect.objectContaining({ user_id: host.id, role: 'owner' })]);
      expect((await h.pool.query('select 1 from workspace_members where user_id = $1', [doomed.user.id])).rowCount).toBe(0);
    }, 60_000);

    it("exports the personal workspace's records and the list of memberships", async () => {
      const person = await signUp(h.server.origin, 'ws-export');
      const host = await signUp(h.server.origin, 'ws-export-host');
      const own = ((await h.call(person, 'POST', '/project', { url: h.siteUrl })).json as { id: string }).id;
      const hosted = await workspaceOf(host, 'Export team', person);
      const theirs = await projectIn(person, hosted);
      const exported = await h.call(person, 'GET', '/account/export');
      const document = JSON.parse(exported.text) as { projects: { id: string }[]; workspaces: { workspace_id: string; role: string; personal: boolean }[] };
      expect(document.projects.map((p) => p.id)).toEqual([own]);
      expect(exported.text).not.toContain(theirs);
      expect(document.workspaces).toEqual([
        expect.objectContaining({ workspace_id: person.id, personal: true, role: 'owner' }),
        expect.objectContaining({ workspace_id: hosted, name: 'Export team', personal: false, role: 'member' }),
      ]);
    }, 60_000);
  });
});
