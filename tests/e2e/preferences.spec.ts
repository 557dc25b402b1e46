import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations, mailsTo, signIn, signedIn, snapBoth, startTestSite, openReady, reloadReady } from './support';

// The Preferences screen against the real server: the two notification toggles saved as they change (and put back
// when a save fails), what they change (a finished scan's mail in the server's outbox; the Webhook screen's
// notice), Download My Data, and Delete My Account confirmed by the email, after which the account is gone.

const toast = (page: Page, title: string) => page.getByTestId('toast').filter({ hasText: title });

/** Calls the product API from the page with the signed-in user's token (the tests' tsconfig has no DOM types). */
async function callApi(page: Page, method: string, path: string, body?: unknown): Promise<{ status: number; text: string }> {
  return page.evaluate(
    async ({ method: verb, path: target, body: payload }) => {
      const storage = (globalThis as unknown as { localStorage: { getItem(key: string): string | null } }).localStorage;
      const raw = storage.getItem('vibeeval-auth-token');
      const token = raw ? (JSON.parse(raw) as { access_token?: string }).access_token : undefined;
      const headers: Record<string, string> = { authorization: `Bearer ${token ?? ''}` };
      if (payload !== undefined) headers['content-type'] = 'application/json';
      const response = await fetch(target, { method: verb, headers, body: payload === undefined ? undefined : JSON.stringify(payload) });
      return { status: response.status, text: await response.text() };
    },
    { method, path, body },
  );
}

/** The subjects of the mails to `to` in the server's outbox. */
const subjectsTo = async (to: string) => (await mailsTo(to)).map((raw) => /^Subject: (.*)$/m.exec(raw)?.[1] ?? '');

/**
 * Creates a one-page project of `url` and runs its scan to the end: completed, and its completion event recorded.
 * The server records that event after deciding on the scan's mail (server/jobs/scan-job.ts): with email
 * notifications off, no mail of this scan can come after it.
 */
async function scanOnce(page: Page, url: string) {
  const created = await callApi(page, 'POST', '/project', { url, num_pages: 1 });
  expect(created.status, created.text).toBe(201);
  const { id } = JSON.parse(created.text) as { id: string };
  expect((await callApi(page, 'PATCH', `/project_test/${id}`)).status).toBe(200);
  await expect
    .poll(async () => (JSON.parse((await callApi(page, 'GET', `/project/${id}/scan`)).text) as { scan?: { state?: string } }).scan?.state, { timeout: 45_000 })
    .toBe('completed');
  await expect.poll(async () => (await callApi(page, 'GET', `/events/project/${id}`)).text, { timeout: 20_000 }).toContain('Scan completed: grade');
}

test('Preferences: toggles saved and put back on failure, mail follows them, the Webhook notice, Download My Data', async ({ page }) => {
  test.setTimeout(150_000);
  const site = await startTestSite(
    { '/': { type: 'text/html', body: '<!doctype html><html lang="en"><title>Prefs site</title><h1>Hello</h1></html>' } },
    { type: 'text/html', body: 'Not found' },
  );
  try {
    const email = await signedIn(page);

    // Webhook notifications start off: the Webhook screen says so and links to Preferences.
    await openReady(page, '/dashboard/webhook');
    const notice = page.getByTestId('webhook-notifications-off');
    await expect(notice).toContainText('Webhook notifications are off', { timeout: 20_000 });
    await notice.getByRole('link', { name: 'Open Preferences' }).click();
    await expect(page).toHaveURL(/\/dashboard\/preferences$/);

    await expect(page.getByRole('heading', { name: 'Preferences', level: 1 })).toBeVisible();
    const emailSwitch = page.getByRole('checkbox', { name: 'Email notifications' });
    const webhookSwitch = page.getByRole('checkbox', { name: 'Webhook notifications' });
    await expect(emailSwitch).toBeChecked({ timeout: 20_000 });
    await expect(webhookSwitch).not.toBeChecked();
    await snapBoth(page, 'preferences');
    await expectNoSeriousA11yViolations(page);

    // A finished scan mails its summary while email notifications are on.
    await scanOnce(page, site.url);
    await expect.poll(() => subjectsTo(email), { timeout: 20_000 }).toEqual([expect.stringMatching(/^Scan finished: grade [A-F][+-]? for http:\/\/127\.0\.0\.1:\d+\/$/)]);

    // Each switch is saved as it changes and stays after a reload.
    await page.getByTestId('webhook-notifications').click();
    await page.getByTestId('email-notifications').click();
    await expect(webhookSwitch).toBeChecked();
    await expect(emailSwitch).not.toBeChecked();
    await expect.poll(async () => JSON.parse((await callApi(page, 'GET', '/preferences')).text) as unknown).toEqual({ email_notifications: false, webhook_notifications: true });
    await reloadReady(page);
    await expect(webhookSwitch).toBeChecked({ timeout: 20_000 });
    await expect(emailSwitch).not.toBeChecked();

    // Off: the next scan sends no mail.
    await scanOnce(page, `${site.url}?second`);
    expect(await subjectsTo(email)).toHaveLength(1);

    // A save that fails puts the switch back and says why.
    await page.route('**/preferences', (route) =>
      route.request().method() === 'PATCH'
        ? route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ detail: 'The database is restarting' }) })
        : route.fallback(),
    );
    await page.getByTestId('email-notifications').click();
    await expect(toast(page, 'Failed to save preferences')).toContainText('The database is restarting');
    await expect(emailSwitch).not.toBeChecked();
    await page.unroute('**/preferences');

    // With webhook notifications on, the Webhook screen has no notice.
    await openReady(page, '/dashboard/webhook');
    await expect(page.getByRole('heading', { name: 'Webhook', level: 1 })).toBeVisible({ timeout: 20_000 });
    await expect(page.getByText('No webhooks yet')).toBeVisible({ timeout: 20_000 });
    await expect(notice).toHaveCount(0);

    // Download My Data: a JSON file named vibeeval-data-<date>.json that opens with the email and the settings.
    await openReady(page, '/dashboard/preferences');
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download My Data' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^vibeeval-data-\d{4}-\d{2}-\d{2}\.json$/);
    const data = JSON.parse(await readFile(await download.path(), 'utf8')) as Record<string, unknown> & { projects: unknown[]; scans: unknown[] };
    expect(data).toMatchObject({ email, email_notifications: false, webhook_notifications: true });
    expect(data.projects).toHaveLength(2);
    expect(data.scans).toHaveLength(2);
  } finally {
    await site.close();
  }
});

test('Delete My Account: the typed email confirms, then the account is gone and the app is back on /', async ({ page }) => {
  test.setTimeout(120_000);
  const email = await signedIn(page);
  await openReady(page, '/dashboard/preferences');
  await expect(page.getByRole('checkbox', { name: 'Email notifications' })).toBeChecked({ timeout: 20_000 });
  await page.getByRole('button', { name: 'Delete My Account' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText(`Type your email, ${email}, to confirm.`);
  await dialog.getByLabel('Your email').fill('someone-else@example.test');
  await dialog.getByRole('button', { name: 'Delete my account' }).click();
  await expect(dialog.getByText('Type the email you sign in with')).toBeVisible();
  await snapBoth(page, 'preferences-delete-dialog');
  await expectNoSeriousA11yViolations(page);
  await dialog.getByLabel('Your email').fill(email);
  await dialog.getByRole('button', { name: 'Delete my account' }).click();
  await expect(page).toHaveURL(/\/$/, { timeout: 20_000 });
  await expect(toast(page, 'Your account was deleted')).toBeVisible();
  // Signing in again fails: the account no longer exists.
  await openReady(page, '/login');
  await signIn(page, email, 'secret123');
  await expect(page.getByText(/Invalid login credentials/i)).toBeVisible({ timeout: 20_000 });
  await expect(page).toHaveURL(/\/login$/);
});
