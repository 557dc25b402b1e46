import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { startChatStandIns } from '../../server/webhooks/formats/stand-in-receivers';
import { openReady, signedIn, snapBoth } from './support';

// The Webhook screen's format choice against the real server and stand-ins of Slack's, Discord's and Teams'
// incoming webhooks (served here; they check each body as the service would): the format suggested from a Slack
// URL, a Slack test message accepted by the Slack stand-in, an unanswered test with its reason, a Slack webhook
// saved without a signing secret, and its format changed in the list.

const toast = (page: Page, title: string) => page.getByTestId('toast').filter({ hasText: title });

/** A port on 127.0.0.1 that nothing listens on: one the system just gave out and took back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

test('Webhook screen: a Slack format chosen (and suggested from the URL), tested against a Slack stand-in, saved, changed to Discord', async ({ page }) => {
  test.setTimeout(150_000);
  const standIns = await startChatStandIns();
  try {
    await signedIn(page);
    await openReady(page, '/dashboard/webhook');
    await expect(page.getByRole('heading', { name: 'Webhook', level: 1 })).toBeVisible({ timeout: 20_000 });
    await expect(page.getByText('No webhooks yet')).toBeVisible({ timeout: 20_000 });

    const field = page.getByLabel('Endpoint URL');
    const format = page.getByLabel('Format', { exact: true });
    const hint = page.getByTestId('webhook-format-hint');
    await expect(format).toHaveValue('standard');
    await expect(hint).toHaveText('Events as JSON signed per Standard Webhooks, for your own code to verify with the signing secret.');

    // A Slack incoming-webhook URL chooses the Slack format by itself.
    await field.fill('https://hooks.slack.com/services/T000/B000/XXXX');
    await expect(format).toHaveValue('slack');
    await expect(hint).toContainText('Chosen from the URL. A Slack message');

    // The spec's checks still hold with a chat format.
    await field.fill('not a url');
    await page.getByRole('button', { name: 'Test', exact: true }).click();
    await expect(page.getByTestId('webhook-url-error')).toHaveText('Please enter a valid URL');

    // Test against the Slack stand-in: it accepts the body as Slack would, and the screen shows the success.
    const path = '/slack/e2e';
    await field.fill(`${standIns.url}${path}`);
    await format.selectOption('slack');
    await expect(hint).toHaveText('A Slack message, for an incoming webhook URL (hooks.slack.com/services/…). Not signed.');
    await page.getByRole('button', { name: 'Test', exact: true }).click();
    const result = page.getByTestId('webhook-test-result');
    await expect(result).toHaveAttribute('data-state', 'success', { timeout: 15_000 });
    await expect(page.getByTestId('webhook-test-code')).toHaveText('200');
    const [request] = standIns.at(path);
    expect(request?.problems).toEqual([]);
    expect(request?.headers['webhook-signature']).toBeUndefined();
    expect(request?.json).toMatchObject({ text: expect.stringContaining('vibeeval test message'), blocks: expect.any(Array) });
    await snapBoth(page, 'webhook-format-slack-test');

    // The wrong format for the service: its refusal is shown as today ('Verification failed' and the code).
    await format.selectOption('teams');
    await page.getByRole('button', { name: 'Test', exact: true }).click();
    await expect(result).toHaveAttribute('data-state', 'error', { timeout: 15_000 });
    await expect(result).toContainText('Verification failed');
    await expect(page.getByTestId('webhook-test-code')).toHaveText('400');

    // No answer at all: 'Webhook test failed' with the reason, as for signed JSON.
    await format.selectOption('slack');
    await field.fill(`http://127.0.0.1:${await closedPort()}/slack/gone`);
    await page.getByRole('button', { name: 'Test', exact: true }).click();
    await expect(page.getByTestId('webhook-test-title')).toHaveText('Webhook test failed', { timeout: 15_000 });
    await expect(page.getByTestId('webhook-test-reason')).toContainText('The webhook endpoint did not answer');

    // Saved as Slack: no signing secret to copy (its deliveries are not signed); the list shows and changes its format.
    await field.fill(`${standIns.url}${path}`);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(toast(page, 'Webhook URL saved')).toBeVisible({ timeout: 15_000 });
    await expect(page.getByTestId('webhook-url')).toHaveText(`${standIns.url}${path}`);
    await expect(page.getByTestId('webhook-secret-panel')).toHaveCount(0);
    const rowFormat = page.getByLabel(`Format of webhook ${standIns.url}${path}`);
    await expect(rowFormat).toHaveValue('slack');
    await expect(format).toHaveValue('standard');
    await rowFormat.selectOption('discord');
    await expect(toast(page, 'Webhook format changed')).toBeVisible({ timeout: 15_000 });
    await expect(rowFormat).toHaveValue('discord');
    await openReady(page, '/dashboard/webhook');
    await expect(page.getByLabel(`Format of webhook ${standIns.url}${path}`)).toHaveValue('discord', { timeout: 20_000 });
    await snapBoth(page, 'webhook-format-list');
  } finally {
    await standIns.close();
  }
});
