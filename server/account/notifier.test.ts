import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db';
import { openFreshDatabase } from '../testing/fresh-database';
import { scenarioRuns, scenarios, users, webhookDeliveries, webhooks } from '../db/schema';
import { createMailer } from '../mail/mailer';
import { Sealer } from '../projects/sealed';
import { ReportLinks } from '../reports/links';
import { startSmtpCapture } from '../testing/smtp-capture';
import { personalWorkspace, sharedWorkspace } from '../testing/workspace-rows';
import { WebhookDeliverer } from '../webhooks/delivery';
import { scenarioRunData } from '../webhooks/events';
import { newWebhookSecret } from '../webhooks/signing';
import { AccountNotifier } from './notifier';
import { PreferencesStore } from './preferences';

// Whose switches decide an event of a shared workspace, against a real PostgreSQL, a real SMTP server and a real
// receiver: the workspace's webhooks follow the owner's webhook preference, the mail goes to the member who started
// the run, by that member's own email preference.

let dataDir: string;
let database: Database;
let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
let receiver: http.Server;
let receiverUrl: string;
const hits: string[] = [];
let notifier: AccountNotifier;
let preferences: PreferencesStore;
const sealer = new Sealer('notifier-test-secret');

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'vibeeval-notifier-'));
  database = await openFreshDatabase();
  smtp = await startSmtpCapture();
  receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      hits.push(req.url ?? '');
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const logger = pino({ level: 'silent' });
  const deliverer = new WebhookDeliverer({
    db: database.db,
    sealer,
    policy: { allowPrivate: true },
    logger,
    config: { timeoutMs: 2000, retrySchedule: [60] },
    enqueueAttempt: async () => undefined,
  });
  preferences = new PreferencesStore(database.db);
  const mailer = createMailer({ smtpUrl: smtp.url, from: 'vibeeval <noreply@vibeeval.test>', dataDir });
  notifier = new AccountNotifier({ db: database.db, preferences, webhooks: deliverer, mailer, links: new ReportLinks('links', () => 'http://127.0.0.1'), logger });
}, 60_000);

afterAll(async () => {
  await notifier?.stop();
  receiver?.closeAllConnections();
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
  await smtp?.close();
  await database?.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function account(label: string) {
  const id = randomUUID();
  const email = `${label}-${id.slice(0, 8)}@example.com`;
  await database.db.insert(users).values({ id, email });
  await personalWorkspace(database.pool, id, email);
  return { id, email };
}

const runData = (name: string) =>
  scenarioRunData({
    runId: randomUUID(),
    scenarioId: randomUUID(),
    name,
    website: 'https://client.example',
    projectId: null,
    status: 'passed',
    failedStep: null,
    error: null,
    durationMs: 1200,
  });

async function deliveriesTo(webhookId: string) {
  return database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, webhookId));
}

describe('notifications of a shared workspace', () => {
  it("deliver to the workspace's webhooks by the owner's switch and mail the member who started the run", async () => {
    const owner = await account('owner');
    const member = await account('member');
    const workspace = await sharedWorkspace(database.pool, owner.id, [member.id]);
    const [teamHook] = await database.db
      .insert(webhooks)
      .values({ workspaceId: workspace, userId: owner.id, url: `${receiverUrl}/team`, secretSealed: sealer.seal(newWebhookSecret()) })
      .returning();
    const [personalHook] = await database.db
      .insert(webhooks)
      .values({ workspaceId: member.id, userId: member.id, url: `${receiverUrl}/mine`, secretSealed: sealer.seal(newWebhookSecret()) })
      .returning();
    await preferences.patch(owner.id, { webhook_notifications: true, email_notifications: false });
    await preferences.patch(member.id, { webhook_notifications: false, email_notifications: true });

    await notifier.emit({ workspaceId: workspace, userId: member.id }, 'scenario_run.completed', runData('Checkout works'));
    const mail = await smtp.next(member.email);
    expect(mail.subject).toBe('Scenario passed: Checkout works');
    const delivered = await deliveriesTo(teamHook!.id);
    expect(delivered).toHaveLength(1);
    expect(delivered[0]).toMatchObject({ workspaceId: workspace, userId: owner.id, eventType: 'scenario_run.completed' });
    // The member's own workspace heard nothing of it.
    expect(await deliveriesTo(personalHook!.id)).toEqual([]);
    expect(smtp.messages.filter((message) => message.to.includes(owner.email))).toEqual([]);

    // The owner turns the workspace's webhooks off: the member's own switch does not turn them back on.
    await preferences.patch(owner.id, { webhook_notifications: false });
    await preferences.patch(member.id, { webhook_notifications: true, email_notifications: false });
    await notifier.emit({ workspaceId: workspace, userId: member.id }, 'scenario_run.completed', runData('Login works'));
    await notifier.stop();
    expect(await deliveriesTo(teamHook!.id)).toHaveLength(1);
    expect(smtp.messages.filter((message) => message.subject === 'Scenario passed: Login works')).toEqual([]);
  });

  it("go to the account's own webhooks and address for an event named by the account alone", async () => {
    const alone = await account('alone');
    const [hook] = await database.db
      .insert(webhooks)
      .values({ workspaceId: alone.id, userId: alone.id, url: `${receiverUrl}/alone`, secretSealed: sealer.seal(newWebhookSecret()) })
      .returning();
    await preferences.patch(alone.id, { webhook_notifications: true, email_notifications: true });
    await notifier.emit(alone.id, 'scenario_run.completed', runData('Alone'));
    expect((await smtp.next(alone.email)).subject).toBe('Scenario passed: Alone');
    expect(await deliveriesTo(hook!.id)).toHaveLength(1);
  });
});

describe('the mails of a Run All', () => {
  async function batchOf(owner: { id: string }, names: string[]) {
    const batchId = randomUUID();
    const runs = [];
    for (const name of names) {
      const [scenario] = await database.db
        .insert(scenarios)
        .values({ userId: owner.id, workspaceId: owner.id, website: 'https://client.example', actions: [], scenarioCode: '', summarizedActions: name })
        .returning();
      const [run] = await database.db.insert(scenarioRuns).values({ scenarioId: scenario!.id, userId: owner.id, workspaceId: owner.id, batchId, state: 'running' }).returning();
      runs.push({ id: run!.id, scenarioId: scenario!.id, name });
    }
    return runs;
  }
  const finish = async (run: { id: string }, status: 'passed' | 'failed', error: string | null = null) => {
    await database.db
      .update(scenarioRuns)
      .set({ state: status, error, failedStep: status === 'failed' ? 1 : null })
      .where(eq(scenarioRuns.id, run.id));
  };
  const dataOf = (run: { id: string; scenarioId: string; name: string }, status: 'passed' | 'failed') =>
    scenarioRunData({
      runId: run.id,
      scenarioId: run.scenarioId,
      name: run.name,
      website: 'https://client.example',
      projectId: null,
      status,
      failedStep: null,
      error: null,
      durationMs: 900,
    });

  it('send one summary when the last run of the batch finished, not a mail per run', async () => {
    const alone = await account('batch');
    await preferences.patch(alone.id, { email_notifications: true });
    const [first, second, third] = await batchOf(alone, ['Sign in', 'Checkout', 'Search']);
    await finish(first!, 'passed');
    await notifier.emit(alone.id, 'scenario_run.completed', dataOf(first!, 'passed'));
    await finish(second!, 'failed', 'no button');
    await notifier.emit(alone.id, 'scenario_run.completed', dataOf(second!, 'failed'));
    await notifier.stop();
    expect(smtp.messages.filter((message) => message.to.includes(alone.email))).toEqual([]);
    await finish(third!, 'passed');
    await notifier.emit(alone.id, 'scenario_run.completed', dataOf(third!, 'passed'));
    const mail = await smtp.next(alone.email);
    expect(mail.subject).toBe('Run All: 1 of 3 scenarios failed');
    expect(mail.text).toContain('Run All finished: 2 passed, 1 failed.');
    expect(mail.text).toContain('Passed: Sign in (https://client.example)');
    expect(mail.text).toContain('Failed: Checkout (https://client.example) at step 2: no button');
    // The same end announced again sends nothing more.
    await notifier.emit(alone.id, 'scenario_run.completed', dataOf(third!, 'passed'));
    await notifier.stop();
    // `next` took the summary: nothing else came.
    expect(smtp.messages.filter((message) => message.to.includes(alone.email))).toEqual([]);
  });

  it('send the summary once when the last two runs finish together', async () => {
    const alone = await account('together');
    await preferences.patch(alone.id, { email_notifications: true });
    const runs = await batchOf(alone, ['A', 'B', 'C', 'D', 'E', 'F']);
    for (const run of runs) await finish(run, 'passed');
    await Promise.all(runs.map((run) => notifier.emit(alone.id, 'scenario_run.completed', dataOf(run, 'passed'))));
    expect((await smtp.next(alone.email)).subject).toBe('Run All: all 6 scenarios passed');
    await notifier.stop();
    // `next` took the summary: nothing else came.
    expect(smtp.messages.filter((message) => message.to.includes(alone.email))).toEqual([]);
  });
});
