import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { newEmail, signIn, signUp, snap } from './support';

// The API and Webhook screens against the real server: a key created, shown once, used on /v1 from the test
// (its 'last used' follows) and revoked; the Documentation tab from the server's OpenAPI document; a webhook
// saved and tested against receivers served here.

/** Full-page screenshots at 1280 and 375 px, toasts closed first; the page may not scroll sideways at 375. */
async function snapBoth(page: Page, name: string) {
  await expect(async () => {
    const close = page.getByRole('button', { name: 'Close notification' });
    if ((await close.count()) > 0) await close.first().click({ timeout: 1000 });
    await expect(page.getByTestId('toast')).toHaveCount(0, { timeout: 500 });
  }).toPass({ timeout: 15_000 });
  await snap(page, `${name}-1280`);
  await page.setViewportSize({ width: 375, height: 812 });
  await expect.poll(() => page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
  await snap(page, `${name}-375`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

const toast = (page: Page, title: string) => page.getByTestId('toast').filter({ hasText: title });

async function signedIn(page: Page) {
  await page.setViewportSize({ width: 1280, height: 800 });
  const email = newEmail();
  await signUp(page, email, 'secret123');
  await signIn(page, email, 'secret123');
  await expect(page).toHaveURL(/\/dashboard\/projects$/, { timeout: 20_000 });
}

test('API screen: usage overview, a key shown once, used on /v1 (last used), revoked; documentation with curl', async ({ page, request, context }) => {
  test.setTimeout(150_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signedIn(page);
  await page.goto('/dashboard/api');
  await expect(page.getByRole('heading', { name: 'API', level: 1 })).toBeVisible({ timeout: 20_000 });

  // Overview: the plan, today's usage against the limit, the base URL and the plans.
  await expect(page.getByTestId('api-plan')).toHaveText('Free', { timeout: 20_000 });
  await expect(page.getByTestId('api-usage-label')).toHaveText('0 of 100 requests today');
  await expect(page.getByTestId('api-base-url')).toHaveText(`${new URL(page.url()).origin}/v1`);
  await expect(page.getByTestId('plan-enterprise')).toContainText('Custom');
  await expect(page.getByTestId('plan-pro')).toContainText('1,000 requests / day');
  await snapBoth(page, 'api-overview');

  // API Keys: empty, a blank name refused with the spec's texts, then a key shown once.
  await page.getByRole('tab', { name: 'API Keys' }).click();
  await expect(page.getByText('No API keys yet')).toBeVisible();
  await snapBoth(page, 'api-keys-empty');
  await page.getByLabel('Key name').fill('   ');
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(toast(page, 'Name required')).toContainText('Please provide a name for your API key');
  await page.getByLabel('Key name').fill('CI deploys');
  await page.getByRole('button', { name: 'Create key' }).click();
  const dialog = page.getByTestId('new-key-dialog');
  await expect(dialog).toBeVisible();
  const key = (await page.getByTestId('new-api-key').textContent())!;
  expect(key).toMatch(/^vb_live_[A-Za-z0-9]{26}$/);
  await dialog.getByRole('button', { name: 'Copy API key' }).click();
  expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(key);
  await snapBoth(page, 'api-key-created');
  await page.getByRole('button', { name: "I've saved my key" }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByTestId('api-key-row').filter({ hasText: 'CI deploys' });
  await expect(row).toContainText(`vb_live_…${key.slice(-4)}`);
  await expect(row.getByTestId('api-key-last-used')).toHaveText('Never');
  await expect(page.getByText(key)).toHaveCount(0);

  // A call to /v1 with the key: 'last used' and today's usage follow.
  const scans = await request.get('/v1/scans', { headers: { authorization: `Bearer ${key}` } });
  expect(scans.status()).toBe(200);
  await page.reload();
  await expect(page.getByTestId('api-key-row').filter({ hasText: 'CI deploys' }).getByTestId('api-key-last-used')).toHaveText('0 minutes ago');
  await snapBoth(page, 'api-keys-list');

  // Documentation: GET /v1/scans with a curl example using this server and the placeholder key.
  await page.getByRole('tab', { name: 'Documentation' }).click();
  const listScans = page.getByTestId('api-operation').filter({ has: page.getByText('/v1/scans', { exact: true }) }).filter({ has: page.getByText('GET', { exact: true }) });
  await expect(listScans.first()).toBeVisible({ timeout: 15_000 });
  const curl = listScans.first().getByTestId('curl-example');
  await expect(curl).toContainText(`curl '${new URL(page.url()).origin}/v1/scans`);
  await expect(curl).toContainText('Authorization: Bearer vb_live_YOUR_KEY');
  await listScans.first().getByRole('tab', { name: 'JavaScript' }).click();
  await expect(listScans.first().getByTestId('fetch-example')).toContainText('await fetch(');
  await snapBoth(page, 'api-docs');

  // Overview counts the call.
  await page.getByRole('tab', { name: 'Overview' }).click();
  await expect(page.getByTestId('api-usage-label')).toHaveText(/^[1-9]\d* of 100 requests today$/);

  // Revoke: confirmation, the key gone from the list and refused by /v1 at once.
  await page.getByRole('tab', { name: 'API Keys' }).click();
  await page.getByRole('button', { name: 'Revoke CI deploys' }).click();
  await expect(page.getByRole('alertdialog')).toContainText('CI deploys');
  await snapBoth(page, 'api-key-revoke-confirm');
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  await expect(toast(page, 'API key revoked')).toBeVisible();
  await expect(page.getByTestId('api-key-row')).toHaveCount(0);
  const refused = await request.get('/v1/scans', { headers: { authorization: `Bearer ${key}` } });
  expect(refused.status()).toBe(401);
});
