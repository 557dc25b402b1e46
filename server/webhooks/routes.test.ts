import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../testing/http';
import { MAX_WEBHOOKS_PER_WORKSPACE } from './service';
import { startWebhookHarness, type WebhookHarness } from './testing';

// The webhook routes on a real server in server mode (private addresses refused; the local receiver's 127.0.0.1
// allow-listed, as an administrator would): saving with the spec's validation texts, the address policy at save
// and at test, the test call's answers, another user's 404, the per-user maximum and the list's pages.

let h: WebhookHarness;
beforeAll(async () => {
  h = await startWebhookHarness({
    VIBEEVAL_SCAN_ALLOW_PRIVATE: 'false',
    VIBEEVAL_SCAN_ALLOWLIST: '127.0.0.1',
    VIBEEVAL_SCAN_CONCURRENCY: '0',
    VIBEEVAL_SCENARIO_CONCURRENCY: '0',
    VIBEEVAL_WEBHOOK_TIMEOUT_MS: '400',
  });
}, 60_000);
afterAll(async () => {
  await h?.stop();
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
    expect(list.json).toEqual([{ id: hook.id, url: hook.url, created_at: hook.created_at }]);
    expect(list.text).not.toContain('whsec_');
    expect((await h.call(user, 'POST', '/webhook', { url: 'htt' })).json).toEqual({ detail: 'Webhook URL is required' });
    expect((await h.call(user, 'POST', '/webhook', { url: 'not a url at all' })).json).toEqual({ detail: 'Please enter a valid URL' });
    expect((await h.call(user, 'POST', '/webhook', { url: 'ftp://example.com/x' })).json).toEqual({ detail: 'Please enter a valid URL' });
  });

  it('test call: signs with the saved webhook\'s secret and answers the receiver\'s status; no answer is a 502 with the reason', async () => {
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

  it('refuses a private address in server mode, at save and at test, with the policy\'s reason', async () => {
    const user = await signUp(h.server.origin, 'private');
    for (const url of ['http://10.1.2.3/hook', 'http://192.168.1.20:8080/hook', 'http://[::1]:9/hook']) {
      for (const path of ['/webhook', '/webhook/test']) {
        const answer = await h.call(user, 'POST', path, { url });
        expect(answer.status, `${path} ${url}`).toBe(400);
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

  it(`refuses more than ${MAX_WEBHOOKS_PER_WORKSPACE} webhooks per user with a clear 409`, async () => {
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
});
