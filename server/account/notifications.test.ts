import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PREFERENCES } from '../../common/preferences';
import { signUp } from '../testing/http';
import { startSmtpCapture } from '../testing/smtp-capture';
import { startWebhookHarness, until, type TestUser, type WebhookHarness } from '../webhooks/testing';
import { countsLine, notificationMail } from './notification-mail';

// Preferences on a real server, and what they change: a finished scan sends one mail (grade, counts, signed
// report link) to the account's address through a real SMTP server while email notifications are on, and none
// once they are off; webhooks are delivered only while webhook notifications are on (saving a webhook turns
// them on), and the explicit Test call sends whatever the setting.

let h: WebhookHarness;
let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
beforeAll(async () => {
  smtp = await startSmtpCapture();
  h = await startWebhookHarness({ SMTP_URL: smtp.url, VIBEEVAL_SCAN_RENDER: 'false', VIBEEVAL_SCAN_RATE: '0', VIBEEVAL_SCENARIO_CONCURRENCY: '0' });
}, 60_000);
afterAll(async () => {
  await h?.stop();
  await smtp?.close();
});

async function scanAndWait(user: TestUser): Promise<{ projectId: string }> {
  const project = (await h.call(user, 'POST', '/project', { url: h.siteUrl, num_pages: 1 })).json as { id: string };
  expect((await h.call(user, 'PATCH', `/project_test/${project.id}`)).status).toBe(200);
  await until(
    'the scan to complete',
    async () => ((await h.call(user, 'GET', `/project/${project.id}/scan`)).json as { scan?: { state?: string } | null }).scan?.state === 'completed',
    15_000,
  );
  return { projectId: project.id };
}

describe('preferences', () => {
  it('answers the defaults, stores each setting alone, and refuses an empty or wrong patch with a detail', async () => {
    const user = (await h.userWithWebhook('/unused')).user;
    const fresh = await h.call(user, 'GET', '/preferences');
    // Saving the webhook above turned webhook notifications on; a new account without one has the defaults.
    expect(fresh.json).toEqual({ email_notifications: true, webhook_notifications: true });
    const other = await signUp(h.server.origin, 'prefs');
    expect((await h.call(other, 'GET', '/preferences')).json).toEqual(DEFAULT_PREFERENCES);
    expect((await h.call(other, 'PATCH', '/preferences', { email_notifications: false })).json).toEqual({ email_notifications: false, webhook_notifications: false });
    expect((await h.call(other, 'PATCH', '/preferences', { webhook_notifications: true })).json).toEqual({ email_notifications: false, webhook_notifications: true });
    expect((await h.call(other, 'GET', '/preferences')).json).toEqual({ email_notifications: false, webhook_notifications: true });
    const empty = await h.call(other, 'PATCH', '/preferences', {});
    expect(empty.status).toBe(400);
    expect((empty.json as { detail: string }).detail).toContain('Send email_notifications, webhook_notifications or both');
    const wrong = await h.call(other, 'PATCH', '/preferences', { email_notifications: 'yes' });
    expect(wrong.status).toBe(400);
    expect((wrong.json as { detail: string }).detail).toContain('email_notifications must be true or false');
    // Another account's settings are its own.
    expect((await h.call(user, 'GET', '/preferences')).json).toEqual({ email_notifications: true, webhook_notifications: true });
  });
});

describe('notifications follow the preferences', () => {
  it('a finished scan mails a summary with the grade, counts and a signed report link, and delivers the webhook', async () => {
    const { user } = await h.userWithWebhook('/on');
    await scanAndWait(user);
    const mail = await smtp.next(user.email);
    expect(mail.subject).toMatch(/^Scan finished: grade [A-F][+-]? for http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(mail.text).toMatch(/Findings: \d+ critical, \d+ high, \d+ medium, \d+ low/);
    const link = /Open the report: (\S+)/.exec(mail.text)?.[1];
    expect(link).toMatch(/\/reports\/[0-9a-f-]{36}\/view\?exp=\d+&sig=/);
    const report = await fetch(link!);
    expect(report.status).toBe(200);
    expect(await report.text()).toContain('<html');
    await until('the scan.completed delivery', () => h.bodies('/on').some((entry) => entry.body.includes('"scan.completed"')));
  });

  it('a scan that fails for good mails its member why, and delivers scan.failed', async () => {
    const { user } = await h.userWithWebhook('/failed');
    // A port nobody listens on: the scan cannot reach the site, which is a failure for good (no retry).
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const url = `http://127.0.0.1:${closed}/`;
    const project = (await h.call(user, 'POST', '/project', { url, num_pages: 1 })).json as { id: string };
    expect((await h.call(user, 'PATCH', `/project_test/${project.id}`)).status).toBe(200);
    const mail = await smtp.next(user.email);
    expect(mail.subject).toBe(`Scan failed: ${url}`);
    expect(mail.text).toContain(`The scan of ${url} could not complete.`);
    expect(mail.text).toContain('Could not reach');
    await until('the scan.failed delivery', () => h.bodies('/failed').some((entry) => entry.body.includes('"scan.failed"')));
  });

  it('with both off: no mail and no webhook delivery; the Test call still sends', async () => {
    const { user, webhookId } = await h.userWithWebhook('/off');
    expect((await h.call(user, 'PATCH', '/preferences', { email_notifications: false, webhook_notifications: false })).status).toBe(200);
    const before = smtp.messages.length;
    await scanAndWait(user);
    // The scan's completion is announced before the scan reads as completed: a little margin for the mail.
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(smtp.messages.slice(before).filter((m) => m.to.includes(user.email))).toEqual([]);
    expect(h.bodies('/off')).toEqual([]);
    expect(await h.deliveries(user, webhookId)).toEqual([]);
    const test = await h.call(user, 'POST', '/webhook/test', { url: `${h.receiverUrl}/off` });
    expect(test.json).toEqual({ status_code: 200 });
    expect(h.bodies('/off')).toHaveLength(1);
  });

  it('email on, webhooks turned off after saving: the mail goes, the webhook does not', async () => {
    const { user } = await h.userWithWebhook('/mail-only');
    await h.call(user, 'PATCH', '/preferences', { webhook_notifications: false });
    await scanAndWait(user);
    expect((await smtp.next(user.email)).subject).toContain('Scan finished');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(h.bodies('/mail-only')).toEqual([]);
  });
});

describe('notification mails', () => {
  it('summarises a scenario run and a judged build', () => {
    const run = notificationMail(
      'a@example.com',
      'scenario_run.completed',
      { name: 'Checkout', website: 'https://shop.example', status: 'failed', failed_step: 3, error: 'no button', duration_ms: 2300 },
      null,
    )!;
    expect(run.subject).toBe('Scenario failed: Checkout');
    expect(run.text).toContain('The scenario "Checkout" on https://shop.example failed in 2.3 s.');
    expect(run.text).toContain('Failed at step 3: no button');
    const build = notificationMail(
      'a@example.com',
      'continuous_build.completed',
      { build_hash: 'abc123', url: 'https://shop.example/', status: 'warning', grade: 'C', previous_grade: 'B', new_count: 2, fixed_count: 1 },
      'https://x/reports/1/view?exp=1&sig=s',
    )!;
    expect(build.subject).toBe('Build warning: 2 new findings, grade C for https://shop.example/');
    expect(build.text).toContain('Grade: C (was B)');
    expect(build.text).toContain('New findings: 2, fixed: 1');
    expect(build.html).toContain('<a href="https://x/reports/1/view?exp=1&amp;sig=s">Open the report</a>');
    // A build with nothing new is not called a success next to its grade F: its status says what changed, not how good the site is.
    const unchanged = notificationMail(
      'a@example.com',
      'continuous_build.completed',
      { build_hash: 'abc', url: 'https://shop.example/', status: 'success', grade: 'F', new_count: 0, fixed_count: 0 },
      null,
    )!;
    expect(unchanged.subject).toBe('Build checked: no new findings, grade F for https://shop.example/');
    expect(unchanged.subject).not.toMatch(/success/i);
    const broken = notificationMail(
      'a@example.com',
      'continuous_build.completed',
      { build_hash: 'abc', url: 'https://shop.example/', status: 'error', grade: null, new_count: 0, fixed_count: 0, error: 'Could not reach the site' },
      null,
    )!;
    expect(broken.subject).toBe('Build error: the re-scan of https://shop.example/ failed');
    expect(
      notificationMail('a@example.com', 'scan.failed', { url: 'https://shop.example/', error: 'Could not reach https://shop.example/: connection refused' }, null)!.subject,
    ).toBe('Scan failed: https://shop.example/');
    expect(notificationMail('a@example.com', 'report.generated', {}, null)).toBeNull();
    expect(countsLine({ critical: 1, high: 0, low: 4 })).toBe('1 critical, 0 high, 0 medium, 4 low');
    // Text from the site never becomes markup in the mail.
    expect(notificationMail('a@example.com', 'scenario_run.completed', { name: '<script>x</script>', website: 'w', status: 'passed' }, null)!.html).not.toContain('<script>');
  });
});
