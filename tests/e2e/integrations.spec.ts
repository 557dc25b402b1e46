import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { startTestSite, snapBoth, signedIn, openReady, reloadReady } from './support';

// The API and Webhook screens against the real server: a key created, shown once, used on /v1 from the test
// (its 'last used' follows) and revoked; the Documentation tab from the server's OpenAPI document; a webhook
// saved and tested against receivers served here.

const toast = (page: Page, title: string) => page.getByTestId('toast').filter({ hasText: title });

test('API screen: usage overview, a key shown once, used on /v1 (last used), revoked; documentation with curl', async ({ page, request, context }) => {
  test.setTimeout(150_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signedIn(page);
  await openReady(page, '/dashboard/api');
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
  // Uses are written in batches (once a second, server/api-keys/auth.ts): a list read before that write still says
  // 'Never', so reload until the write has landed.
  await expect(async () => {
    await reloadReady(page);
    await expect(page.getByTestId('api-key-row').filter({ hasText: 'CI deploys' }).getByTestId('api-key-last-used')).toHaveText('just now', { timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  await snapBoth(page, 'api-keys-list');

  // Documentation: GET /v1/scans with a curl example using this server and the placeholder key.
  await page.getByRole('tab', { name: 'Documentation' }).click();
  const listScans = page
    .getByTestId('api-operation')
    .filter({ has: page.getByText('/v1/scans', { exact: true }) })
    .filter({ has: page.getByText('GET', { exact: true }) });
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
  await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke', exact: true }).click();
  await expect(toast(page, 'API key revoked')).toBeVisible();
  await expect(page.getByTestId('api-key-row')).toHaveCount(0);
  const refused = await request.get('/v1/scans', { headers: { authorization: `Bearer ${key}` } });
  expect(refused.status()).toBe(401);
});

interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** A webhook receiver on 127.0.0.1: /ok answers 200 'received', /fail answers 500 'boom'; every request is kept. */
async function startReceiver(): Promise<{ url: (path: string) => string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
      received.push({ path, headers, body: Buffer.concat(chunks).toString('utf8') });
      if (path === '/ok') response.writeHead(200, { 'content-type': 'text/plain' }).end('received');
      else response.writeHead(500, { 'content-type': 'text/plain' }).end('boom');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: (path) => `http://127.0.0.1:${port}${path}`, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A port on 127.0.0.1 that nothing listens on: one the system just gave out and took back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Calls the product API from the page with the session's bearer token (web mode keeps it in localStorage). */
async function callApi(page: Page, method: string, path: string, body?: unknown): Promise<{ status: number; text: string }> {
  return page.evaluate(
    async ({ method: verb, path: target, body: payload }) => {
      // Runs in the page; the tests' tsconfig has no DOM types.
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

test('Webhook screen: checks, Test (200 and 500), saved with its secret once, a signed scan.completed delivery, delete', async ({ page }) => {
  test.setTimeout(180_000);
  const receiver = await startReceiver();
  const site = await startTestSite({ '/': { type: 'text/html', body: '<!doctype html><title>Hook site</title><h1>Hello</h1>' } }, { type: 'text/html', body: 'Not found' });
  try {
    await signedIn(page);
    await openReady(page, '/dashboard/webhook');
    await expect(page.getByRole('heading', { name: 'Webhook', level: 1 })).toBeVisible({ timeout: 20_000 });
    await expect(page.getByText('No webhooks yet')).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('webhook-event-types')).toContainText('scan.completed');
    await expect(page.getByTestId('webhook-event-types')).toContainText('subscription.updated');
    await snapBoth(page, 'webhook-empty');

    // Client checks with the spec's texts.
    const field = page.getByLabel('Endpoint URL');
    const error = page.getByTestId('webhook-url-error');
    await page.getByRole('button', { name: 'Test', exact: true }).click();
    await expect(error).toHaveText('Please enter a webhook URL first');
    await field.fill('abc');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(error).toHaveText('Webhook URL is required');
    await field.fill('not a url');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(error).toHaveText('Please enter a valid URL');
    await snapBoth(page, 'webhook-invalid');

    // Test: a 200 is a success with its code; a 500 is 'Verification failed' with 500.
    const result = page.getByTestId('webhook-test-result');
    await field.fill(receiver.url('/ok'));
    await page.getByRole('button', { name: 'Test', exact: true }).click();
    await expect(result).toHaveAttribute('data-state', 'success', { timeout: 15_000 });
    await expect(page.getByTestId('webhook-test-code')).toHaveText('200');
    await snapBoth(page, 'webhook-test-success');
    await field.fill(receiver.url('/fail'));
    await page.getByRole('button', { name: 'Test', exact: true }).click();
    await expect(result).toHaveAttribute('data-state', 'error', { timeout: 15_000 });
    await expect(result).toContainText('Verification failed');
    await expect(page.getByTestId('webhook-test-code')).toHaveText('500');
    await snapBoth(page, 'webhook-test-failed');
    // No answer at all (nothing listens on the port): the spec's 'Webhook test failed', the reason below it.
    await field.fill(`http://127.0.0.1:${await closedPort()}/hook`);
    await page.getByRole('button', { name: 'Test', exact: true }).click();
    await expect(page.getByTestId('webhook-test-reason')).toContainText('The webhook endpoint did not answer', { timeout: 15_000 });
    await expect(page.getByTestId('webhook-test-title')).toHaveText('Webhook test failed');
    await expect(page.getByTestId('webhook-test-code')).toHaveCount(0);
    await snapBoth(page, 'webhook-test-unanswered');

    // Save: the signing secret shown once, with how to verify; the webhook listed.
    await field.fill(receiver.url('/ok'));
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const secret = (await page.getByTestId('webhook-secret').textContent({ timeout: 15_000 }))!;
    expect(secret).toMatch(/^whsec_/);
    await expect(page.getByTestId('webhook-secret-panel')).toContainText('standardwebhooks');
    await expect(page.getByTestId('webhook-url')).toHaveText(receiver.url('/ok'));
    await snapBoth(page, 'webhook-saved-secret');
    await page.getByRole('button', { name: "I've saved my secret" }).click();
    await expect(page.getByTestId('webhook-secret-panel')).toHaveCount(0);

    // A scan completes: its signed scan.completed delivery reaches the receiver and shows under the webhook.
    const project = await callApi(page, 'POST', '/project', { url: site.url, instruction_text: 'Hook site' });
    expect(project.status, project.text).toBe(201);
    const projectId = (JSON.parse(project.text) as { id: string }).id;
    const started = await callApi(page, 'PATCH', `/project_test/${projectId}`);
    expect(started.status, started.text).toBeLessThan(300);
    await page.getByRole('button', { name: 'Show deliveries' }).click();
    const delivery = page.getByTestId('webhook-delivery').filter({ hasText: 'scan.completed' });
    await expect(delivery).toBeVisible({ timeout: 90_000 });
    await expect(delivery.getByTestId('delivery-status')).toHaveText('succeeded');
    await expect(delivery.getByTestId('attempt-outcome').first()).toHaveText('HTTP 200');
    await expect(delivery).toContainText('received');
    const event = receiver.received.find((request) => request.body.includes('"scan.completed"'));
    expect(event).toBeDefined();
    const verified = new Webhook(secret).verify(event!.body, event!.headers) as { type: string; data: { project_id: string } };
    expect(verified.type).toBe('scan.completed');
    expect(verified.data.project_id).toBe(projectId);
    await snapBoth(page, 'webhook-deliveries');

    // Delete with confirmation.
    await page.getByRole('button', { name: `Delete webhook ${receiver.url('/ok')}` }).click();
    await expect(page.getByRole('alertdialog')).toContainText(receiver.url('/ok'));
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await expect(toast(page, 'Webhook deleted')).toBeVisible();
    await expect(page.getByText('No webhooks yet')).toBeVisible();
  } finally {
    await receiver.close();
    await site.close();
  }
});

test('Error states: lists that fail show Retry, a refused save shows the server detail, a failed delete says so', async ({ page }) => {
  test.setTimeout(120_000);
  await signedIn(page);
  const fail = (status: number, body: unknown) => (route: import('@playwright/test').Route) =>
    route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) });

  // API keys and usage that cannot load: their errors with Retry, which loads them once the server answers.
  await page.route(/\/api_keys(\?.*)?$/, fail(500, {}));
  await page.route(/\/api_usage$/, fail(500, {}));
  await openReady(page, '/dashboard/api?tab=keys');
  await expect(page.getByRole('alert').filter({ hasText: 'Failed to load API keys' })).toBeVisible({ timeout: 30_000 });
  await snapBoth(page, 'api-keys-error');
  await page.unroute(/\/api_keys(\?.*)?$/);
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByText('No API keys yet')).toBeVisible({ timeout: 15_000 });
  await page.getByRole('tab', { name: 'Overview' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Failed to load API usage' })).toBeVisible({ timeout: 30_000 });
  await snapBoth(page, 'api-usage-error');

  // Webhooks: the list's error, a save refused with the server's detail, a delete that fails.
  await page.route(/\/webhooks(\?.*)?$/, fail(500, {}));
  await openReady(page, '/dashboard/webhook');
  await expect(page.getByRole('alert').filter({ hasText: 'Failed to load webhooks' })).toBeVisible({ timeout: 30_000 });
  await snapBoth(page, 'webhook-list-error');
  await page.unroute(/\/webhooks(\?.*)?$/);
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByText('No webhooks yet')).toBeVisible({ timeout: 15_000 });

  await page.route(/\/webhook$/, fail(400, { detail: 'url: this address is not allowed' }));
  await page.getByLabel('Endpoint URL').fill('https://hooks.example.com/in');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(toast(page, 'url: this address is not allowed')).toBeVisible();
  await page.unroute(/\/webhook$/);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByTestId('webhook-secret')).toContainText('whsec_', { timeout: 15_000 });

  await page.route(/\/webhook\/[0-9a-f-]{36}$/, (route) => (route.request().method() === 'DELETE' ? fail(500, {})(route) : route.continue()));
  await page.getByRole('button', { name: 'Delete webhook https://hooks.example.com/in' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  await expect(toast(page, 'Failed to delete webhook')).toBeVisible();
  await expect(page.getByTestId('webhook-row')).toHaveCount(1);
});
