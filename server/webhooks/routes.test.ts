import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase, type FreshDatabase } from '../testing/fresh-database';
import { callApi, signUp } from '../testing/http';
import { MEMBERSHIP_SETTLE_MS, removeMember, sharedWorkspace } from '../testing/workspace-rows';
import { startChatStandIns } from './formats/stand-in-receivers';
import { MAX_WEBHOOKS_PER_WORKSPACE } from './service';
import { startWebhookHarness, type WebhookHarness } from './testing';

// The webhook routes on a real server in server mode (private addresses refused; the local receiver's 127.0.0.1
// allow-listed, as an administrator would): saving with the spec's validation texts, the address policy at save
// and at test, the test call's answers, another user's 404, the per-user maximum and the list's pages.

let h: WebhookHarness;
// A database of its own, so that the tests can write workspaces and memberships directly.
let root: string;
let database: FreshDatabase;
let db: pg.Pool;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'vibeeval-hooks-'));
  database = await freshDatabase();
  db = new pg.Pool({ connectionString: database.url, max: 2 });
  h = await startWebhookHarness({
    DATABASE_URL: database.url,
    VIBEEVAL_SCAN_ALLOW_PRIVATE: 'false',
    VIBEEVAL_SCAN_ALLOWLIST: '127.0.0.1',
    VIBEEVAL_SCAN_CONCURRENCY: '0',
    VIBEEVAL_SCENARIO_CONCURRENCY: '0',
    VIBEEVAL_WEBHOOK_TIMEOUT_MS: '400',
  });
}, 60_000);
afterAll(async () => {
  await h?.stop();
  await db?.end();
  await database?.drop();
  if (root) await rm(root, { recursive: true, force: true });
});

describe('webhook routes', () => {
  it('saves a webhook with a whsec_ secret shown once, lists it without the secret, and validates the URL with the spec texts', async () => {
    const user = await signUp(h.server.origin, 'save');
    const created = await h.call(user, 'POST', '/webhook', { url: `${h.receiverUrl}/saved` });
    expect(created.status).toBe(201);
    const hook = created.json as { id: string; url: string; created_at: string; secret: string };
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    expect(hook.url).toBe(`${h.receiverUrl}/saved`);
    const list = await h.call(user, 'GET', '/webhooks');
    expect(list.json).toEqual([{ id: hook.id, url: hook.url, format: 'standard', created_at: hook.created_at }]);
    expect(list.text).not.toContain('whsec_');
    expect((await h.call(user, 'POST', '/webhook', { url: 'htt' })).json).toEqual({ detail: 'Webhook URL is required' });
    expect((await h.call(user, 'POST', '/webhook', { url: 'not a url at all' })).json).toEqual({ detail: 'Please enter a valid URL' });
    expect((await h.call(user, 'POST', '/webhook', { url: 'ftp://example.com/x' })).json).toEqual({ detail: 'Please enter a valid URL' });
  });

  it("test call: signs with the saved webhook's secret and answers the receiver's status; no answer is a 502 with the reason", async () => {
    const { user } = await h.userWithWebhook('/ok-test');
    const ok = await h.call(user, 'POST', '/webhook/test', { url: `${h.receiverUrl}/ok-test` });
    expect(ok.status).toBe(200);
    expect(ok.json).toEqual({ status_code: 200 });
    const event = h.bodies('/ok-test').at(-1)!;
    expect(event.verified).toMatchObject({ type: 'webhook.test' });
    const failing = await h.call(user, 'POST', '/webhook/test', { url: `${h.receiverUrl}/down-test` });
    expect(failing.json).toEqual({ status_code: 500 });
    const silent = await h.call(user, 'POST', '/webhook/test', { url: `${h.receiverUrl}/slow-test` });
    expect(silent.status).toBe(502);
    expect((silent.json as { detail: string }).detail).toMatch(/^The webhook endpoint did not answer: .*did not answer in time/);
    expect((await h.call(user, 'POST', '/webhook/test', { url: '' })).json).toEqual({ detail: 'Webhook URL is required' });
  });

  it('saves the chosen format and lists it, refuses an unknown one, and Test sends a message in the chosen format', async () => {
    const standIns = await startChatStandIns();
    try {
      const user = await signUp(h.server.origin, 'formats');
      const created = await h.call(user, 'POST', '/webhook', { url: `${standIns.url}/slack/saved`, format: 'slack' });
      expect(created.status, created.text).toBe(201);
      expect(created.json).toMatchObject({ url: `${standIns.url}/slack/saved`, format: 'slack' });
      expect((await h.call(user, 'GET', '/webhooks')).json).toMatchObject([{ format: 'slack' }]);
      for (const format of ['Slack', 'msteams', '', 3, null]) {
        const refused = await h.call(user, 'POST', '/webhook', { url: `${standIns.url}/slack/bad`, format });
        expect(refused.status, String(format)).toBe(400);
        expect((refused.json as { detail: string }).detail).toMatch(/format/);
      }
      expect(((await h.call(user, 'GET', '/webhooks')).json as unknown[]).length).toBe(1);
      // A saved webhook changes format; its URL and id stay; another format name is refused.
      const id = (created.json as { id: string }).id;
      const changed = await h.call(user, 'PATCH', `/webhook/${id}`, { format: 'discord' });
      expect(changed.json).toMatchObject({ id, url: `${standIns.url}/slack/saved`, format: 'discord' });
      expect((await h.call(user, 'GET', '/webhooks')).json).toMatchObject([{ id, format: 'discord' }]);
      expect((await h.call(user, 'PATCH', `/webhook/${id}`, { format: 'irc' })).status).toBe(400);
      expect((await h.call(user, 'PATCH', `/webhook/${id}`, { format: 'teams', url: 'https://elsewhere.example/' })).status).toBe(400);
      expect((await h.call(await signUp(h.server.origin, 'formats-other'), 'PATCH', `/webhook/${id}`, { format: 'teams' })).json).toEqual({ detail: 'Webhook not found' });
      expect((await h.call(user, 'GET', '/webhooks')).json).toMatchObject([{ id, format: 'discord' }]);

      for (const [format, status] of [
        ['slack', 200],
        ['discord', 204],
        ['teams', 202],
      ] as const) {
        const path = `/${format}/test`;
        const tested = await h.call(user, 'POST', '/webhook/test', { url: `${standIns.url}${path}`, format });
        expect(tested.json, format).toEqual({ status_code: status });
        const [request] = standIns.at(path);
        expect(request!.problems, format).toEqual([]);
        expect(request!.body, format).toContain('vibeeval test message');
        expect(request!.headers['webhook-signature'], format).toBeUndefined();
      }
      // The wrong format for a service is what the service refuses: the test shows its answer.
      expect((await h.call(user, 'POST', '/webhook/test', { url: `${standIns.url}/discord/wrong`, format: 'teams' })).json).toEqual({ status_code: 400 });
      expect((await h.call(user, 'POST', '/webhook/test', { url: `${standIns.url}/slack/plain` })).json).toEqual({ status_code: 400 });
    } finally {
      await standIns.close();
    }
  });

  it("refuses a private address in server mode, at save and at test, in every format, with the policy's reason", async () => {
    const user = await signUp(h.server.origin, 'private');
    for (const url of ['http://10.1.2.3/hook', 'http://192.168.1.20:8080/hook', 'http://[::1]:9/hook']) {
      for (const [path, format] of [
        ['/webhook', 'standard'],
        ['/webhook/test', 'standard'],
        ['/webhook', 'slack'],
        ['/webhook/test', 'teams'],
      ] as const) {
        const answer = await h.call(user, 'POST', path, { url, format });
        expect(answer.status, `${path} ${format} ${url}`).toBe(400);
        expect((answer.json as { detail: string }).detail).toMatch(/a private or loopback address; scans from this server may reach only public addresses/);
      }
    }
    expect((await h.call(user, 'GET', '/webhooks')).json).toEqual([]);
  });

  it("answers 404 for another user's webhook and leaves it in place", async () => {
    const { user: owner, webhookId } = await h.userWithWebhook('/owned');
    const other = await signUp(h.server.origin, 'other');
    for (const [method, path] of [
      ['DELETE', `/webhook/${webhookId}`],
      ['GET', `/webhook/${webhookId}/deliveries`],
    ] as const) {
      const answer = await h.call(other, method, path);
      expect(answer.status).toBe(404);
      expect(answer.json).toEqual({ detail: 'Webhook not found' });
    }
    expect((await h.call(other, 'GET', '/webhooks')).json).toEqual([]);
    expect(((await h.call(owner, 'GET', '/webhooks')).json as { id: string }[]).map((hook) => hook.id)).toEqual([webhookId]);
  });

  it(`refuses more than ${MAX_WEBHOOKS_PER_WORKSPACE} webhooks per workspace with a clear 409`, async () => {
    const user = await signUp(h.server.origin, 'many');
    for (let i = 0; i < MAX_WEBHOOKS_PER_WORKSPACE; i++) expect((await h.call(user, 'POST', '/webhook', { url: `${h.receiverUrl}/many/${i}` })).status).toBe(201);
    const refused = await h.call(user, 'POST', '/webhook', { url: `${h.receiverUrl}/many/last` });
    expect(refused.status).toBe(409);
    expect(refused.json).toEqual({ detail: `You can have at most ${MAX_WEBHOOKS_PER_WORKSPACE} webhooks; delete one to add another.` });
    const page = await fetch(`${h.server.origin}/webhooks?limit=15`, { headers: { authorization: `Bearer ${user.token}` } });
    expect(((await page.json()) as unknown[]).length).toBe(15);
    const next = page.headers.get('x-next-cursor');
    expect(typeof next).toBe('string');
    expect(((await h.call(user, 'GET', `/webhooks?limit=15&cursor=${String(next)}`)).json as unknown[]).length).toBe(MAX_WEBHOOKS_PER_WORKSPACE - 15);
  });

  it("are the workspace's: its members list, test and delete them; a former member and a stranger get 404", async () => {
    const [owner, member, former, stranger] = await Promise.all(['owner', 'member', 'former', 'stranger'].map((role) => signUp(h.server.origin, `ws-${role}`)));
    const workspace = await sharedWorkspace(db, owner!.id, [member!.id, former!.id]);
    const inW = (user: { token: string }, method: string, path: string, body?: unknown) =>
      callApi(h.server.origin, method, path, { token: user.token, body, headers: { 'x-vibeeval-workspace': workspace } });
    const created = await inW(member!, 'POST', '/webhook', { url: `${h.receiverUrl}/team` });
    expect(created.status, created.text).toBe(201);
    const hook = created.json as { id: string; url: string };
    expect((await db.query('select user_id, workspace_id from webhooks where id = $1', [hook.id])).rows).toEqual([{ user_id: member!.id, workspace_id: workspace }]);
    // Saving asked for the workspace's deliveries: the owner's webhook switch, which gates them, is on.
    expect(((await h.call(owner!, 'GET', '/preferences')).json as { webhook_notifications: boolean }).webhook_notifications).toBe(true);

    expect(((await inW(owner!, 'GET', '/webhooks')).json as { id: string }[]).map((w) => w.id)).toEqual([hook.id]);
    expect((await inW(owner!, 'GET', `/webhook/${hook.id}/deliveries`)).status).toBe(200);
    expect((await inW(owner!, 'POST', '/webhook/test', { url: hook.url })).json).toEqual({ status_code: 200 });
    // Nobody's personal list holds it.
    for (const user of [owner!, member!, stranger!]) expect((await h.call(user, 'GET', '/webhooks')).json).toEqual([]);

    await removeMember(db, workspace, former!.id);
    await new Promise((resolve) => setTimeout(resolve, MEMBERSHIP_SETTLE_MS));
    for (const outsider of [former!, stranger!]) {
      expect((await inW(outsider, 'GET', '/webhooks')).status).toBe(404);
      for (const [method, path] of [
        ['DELETE', `/webhook/${hook.id}`],
        ['GET', `/webhook/${hook.id}/deliveries`],
      ] as const) {
        expect((await inW(outsider, method, path)).status).toBe(404);
        expect((await h.call(outsider, method, path)).json).toEqual({ detail: 'Webhook not found' });
      }
    }
    expect((await inW(owner!, 'DELETE', `/webhook/${hook.id}`)).status).toBe(204);
    expect((await inW(member!, 'GET', '/webhooks')).json).toEqual([]);
  });
});
