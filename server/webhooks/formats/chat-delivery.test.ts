import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookFormat } from '../../../common/webhooks';
import type { Database } from '../../db';
import { webhookAttempts, webhookDeliveries, webhooks } from '../../db/schema';
import { Sealer } from '../../projects/sealed';
import { openFreshDatabase } from '../../testing/fresh-database';
import { personalWorkspace } from '../../testing/workspace-rows';
import { WebhookDeliverer } from '../delivery';
import { newWebhookSecret } from '../signing';
import { startChatStandIns, type ChatStandIns } from './stand-in-receivers';

// The deliverer with chat formats, against a real PostgreSQL and stand-ins of Slack's, Discord's and Teams' incoming
// webhooks that check each body as the service would: one event reaches every webhook of the workspace in its own
// format (the signed JSON one still signed), hostile finding titles arrive escaped, and a service's bad moment is
// retried on the same backoff as signed deliveries.

const ORIGIN = 'https://vibeeval.example';
const HOSTILE = '<!channel> @everyone <script>alert(1)</script> [click](https://evil.example) *x*';

let database: Database;
let standIns: ChatStandIns;
const sealer = new Sealer('chat-delivery-test-secret');
const queued: [string, number][] = [];
let deliverer: WebhookDeliverer;

beforeAll(async () => {
  database = await openFreshDatabase();
  standIns = await startChatStandIns();
  deliverer = new WebhookDeliverer({
    db: database.db,
    sealer,
    policy: { allowPrivate: true },
    logger: pino({ level: 'silent' }),
    config: { timeoutMs: 2000, retrySchedule: [7, 60] },
    enqueueAttempt: async (id, delay) => void queued.push([id, delay]),
    origin: () => ORIGIN,
  });
}, 60_000);

afterAll(async () => {
  await deliverer?.stop();
  await standIns?.close();
  await database?.close();
});

async function workspaceWith(hooks: { path: string; format: WebhookFormat; secret?: string }[]): Promise<string> {
  const userId = await personalWorkspace(database.pool, randomUUID());
  for (const hook of hooks) {
    await database.db
      .insert(webhooks)
      .values({ workspaceId: userId, userId, url: `${standIns.url}${hook.path}`, format: hook.format, secretSealed: sealer.seal(hook.secret ?? newWebhookSecret()) });
  }
  return userId;
}

const scanData = (projectId: string) => ({
  scan_id: randomUUID(),
  project_id: projectId,
  url: 'https://shop.example/',
  score: 64,
  grade: 'D',
  counts: { critical: 0, high: 2, medium: 1, low: 3, info: 0 },
  new_findings: [{ title: HOSTILE, severity: 'high', fingerprint: 'f1' }],
});

describe('chat formats through the deliverer', () => {
  it('delivers one event to a Slack, a Discord, a Teams and a signed webhook, each in its format', async () => {
    const secret = newWebhookSecret();
    const run = randomUUID().slice(0, 8);
    const paths = { slack: `/slack/${run}`, discord: `/discord/${run}`, teams: `/teams/${run}`, standard: `/standard/${run}` };
    const userId = await workspaceWith([
      { path: paths.slack, format: 'slack' },
      { path: paths.discord, format: 'discord' },
      { path: paths.teams, format: 'teams' },
      { path: paths.standard, format: 'standard', secret },
    ]);
    const projectId = randomUUID();
    const ids = await deliverer.store(userId, 'scan.completed', scanData(projectId));
    expect((await Promise.all(ids.map((id) => deliverer.attempt(id)))).sort()).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded']);

    for (const service of ['slack', 'discord', 'teams'] as const) {
      const [request] = standIns.at(paths[service]);
      expect(request, service).toBeDefined();
      expect(request!.problems, service).toEqual([]);
      expect(
        Object.keys(request!.headers).filter((name) => name.startsWith('webhook-')),
        service,
      ).toEqual([]);
      expect(request!.body, service).toContain(`${ORIGIN}/dashboard/projects/${projectId}`);
      expect(request!.body, service).toContain('3 issues, 3 warnings');
    }
    // Each service's own defence against a scanned site's title: Slack's entities, Discord's escapes and no pings,
    // Teams' plain text with its masked link broken (HTML and '<!channel>' mean nothing there).
    expect(standIns.at(paths.slack)[0]!.body).toContain('&lt;!channel&gt; @\u200beveryone &lt;script&gt;');
    expect(standIns.at(paths.discord)[0]!.json).toMatchObject({ allowed_mentions: { parse: [] } });
    expect((standIns.at(paths.discord)[0]!.json as { embeds: { description: string }[] }).embeds[0]!.description).toContain('\\<!channel\\> \\@everyone \\<script\\>');
    expect(standIns.at(paths.teams)[0]!.body).toContain('[click]\u200b(https://evil.example)');
    expect(standIns.at(paths.teams)[0]!.body).not.toContain('msteams');

    // The signed JSON webhook of the same workspace gets the event itself, verifiable with its secret.
    const [signed] = standIns.at(paths.standard);
    const verified = new Webhook(secret).verify(signed!.body, {
      'webhook-id': String(signed!.headers['webhook-id']),
      'webhook-timestamp': String(signed!.headers['webhook-timestamp']),
      'webhook-signature': String(signed!.headers['webhook-signature']),
    });
    expect(verified).toMatchObject({ type: 'scan.completed', data: { project_id: projectId } });
  });

  it('retries a chat service that failed on the same backoff, then records the success', async () => {
    const path = `/teams/flaky/${randomUUID().slice(0, 8)}`;
    const userId = await workspaceWith([{ path, format: 'teams' }]);
    const [id] = await deliverer.store(userId, 'scenario_run.completed', {
      run_id: randomUUID(),
      scenario_id: randomUUID(),
      project_id: null,
      name: 'Checkout',
      website: 'https://shop.example',
      status: 'failed',
      failed_step: 2,
      error: 'Button "Pay" not found',
      duration_ms: 3100,
    });
    expect(await deliverer.attempt(id!)).toBe('retrying');
    expect(queued).toContainEqual([id, 7]);
    // Not due yet: nothing is sent.
    expect(await deliverer.attempt(id!)).toBe('skipped');
    expect(standIns.at(path)).toHaveLength(1);
    // Its time comes (the queue would run it in 7 s).
    await database.db
      .update(webhookDeliveries)
      .set({ nextAttemptAt: sql`now() - interval '1 second'` })
      .where(eq(webhookDeliveries.id, id!));
    expect(await deliverer.attempt(id!)).toBe('succeeded');

    const [first, second] = standIns.at(path);
    expect([first!.status, second!.status]).toEqual([503, 202]);
    expect(second!.problems).toEqual([]);
    expect(second!.body).toBe(first!.body);
    expect(second!.body).toContain('Scenario failed: Checkout');
    const attempts = await database.db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, id!)).orderBy(webhookAttempts.attemptedAt);
    expect(attempts.map((attempt) => attempt.statusCode)).toEqual([503, 202]);
    expect(attempts[0]!.responseExcerpt).toBe('try again later');
  });

  it('applies the address policy to chat formats at connect time: a loopback receiver is refused in server mode', async () => {
    const strict = new WebhookDeliverer({
      db: database.db,
      sealer,
      policy: { allowPrivate: false },
      logger: pino({ level: 'silent' }),
      config: { timeoutMs: 2000, retrySchedule: [7] },
      enqueueAttempt: async () => undefined,
      origin: () => ORIGIN,
    });
    const path = `/discord/${randomUUID().slice(0, 8)}`;
    const userId = await workspaceWith([{ path, format: 'discord' }]);
    const [id] = await strict.store(userId, 'scan.completed', scanData(randomUUID()));
    expect(await strict.attempt(id!)).toBe('retrying');
    expect(standIns.at(path)).toEqual([]);
    const [attempt] = await database.db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, id!));
    expect(attempt!.statusCode).toBeNull();
    expect(attempt!.error).toMatch(/private or loopback address/);
    await strict.stop();
  });

  it('keeps the format a known one in the database, and the signed JSON for rows saved before formats existed', async () => {
    const userId = await personalWorkspace(database.pool, randomUUID());
    const insert = (format?: string) =>
      database.pool.query<{ format: string }>(
        format === undefined
          ? `insert into webhooks (workspace_id, user_id, url, secret_sealed) values ($1, $1, 'https://example.com/a', 'x') returning format`
          : `insert into webhooks (workspace_id, user_id, url, secret_sealed, format) values ($1, $1, 'https://example.com/b', 'x', $2) returning format`,
        format === undefined ? [userId] : [userId, format],
      );
    expect((await insert()).rows).toEqual([{ format: 'standard' }]);
    await expect(insert('irc')).rejects.toThrow(/webhooks_format_check/);
  });

  it('delivers chat formats even when the signing secret cannot be read (they need none)', async () => {
    const path = `/slack/${randomUUID().slice(0, 8)}`;
    const userId = await personalWorkspace(database.pool, randomUUID());
    await database.db
      .insert(webhooks)
      .values({ workspaceId: userId, userId, url: `${standIns.url}${path}`, format: 'slack', secretSealed: new Sealer('another install').seal(newWebhookSecret()) });
    const [id] = await deliverer.store(userId, 'scan.completed', scanData(randomUUID()));
    expect(await deliverer.attempt(id!)).toBe('succeeded');
    expect(standIns.at(path)[0]!.problems).toEqual([]);
  });
});
