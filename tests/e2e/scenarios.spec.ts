import { expect, test, type Locator, type Page } from '@playwright/test';
import { newEmail, signIn, signUp, startTestSite, type TestPage, snapBoth } from './support';

// The AI Browser screen against the real server: scenarios saved through the API, run in the server's headless
// Chromium against a tiny site served here, their results followed on the screen.

const html = (title: string, body: string): TestPage => ({
  type: 'text/html; charset=utf-8',
  body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><link rel="icon" href="data:,"></head><body>${body}</body></html>`,
});
const PAGES: Record<string, TestPage> = {
  '/': html('Fixture shop', '<h1>Fixture shop</h1><nav><a href="/about">About</a></nav><button type="button">Add to cart</button>'),
  '/about': html('About - Fixture shop', '<h1>About us</h1><p>We sell fixtures.</p><a href="/">Home</a>'),
};

/** Opens the shop, follows the About link and checks the page: passes against the site above. */
const PASSING = {
  summarized_actions: 'Shop: about page opens from the home page',
  actions: [
    { type: 'goto', url: '/' },
    { type: 'expect_title', text: 'Fixture shop' },
    { type: 'click', target: { by: 'role', role: 'link', name: 'About' } },
    { type: 'expect_visible', target: { by: 'role', role: 'heading', name: 'About us' } },
  ],
};
/** Its third step looks for a button the site does not have: fails there. */
const FAILING = {
  summarized_actions: 'Shop: checkout button',
  actions: [
    { type: 'goto', url: '/' },
    { type: 'click', target: { by: 'role', role: 'button', name: 'Add to cart' } },
    { type: 'expect_visible', target: { by: 'role', role: 'button', name: 'Checkout' } },
  ],
};

let site: Awaited<ReturnType<typeof startTestSite>>;
test.beforeAll(async () => {
  site = await startTestSite(PAGES, { type: 'text/html', body: '<!doctype html><title>Not found</title><h1>Not found</h1>' });
});
test.afterAll(async () => {
  await site.close();
});

/** POST /scenarios from the page with the session's bearer token (web mode keeps it in localStorage). */
async function createScenario(page: Page, body: { summarized_actions: string; actions: unknown[] }): Promise<string> {
  const answer = await page.evaluate(
    async ({ body: scenario, website }) => {
      // Runs in the page; the tests' tsconfig has no DOM types.
      const storage = (globalThis as unknown as { localStorage: { getItem(key: string): string | null } }).localStorage;
      const raw = storage.getItem('vibeeval-auth-token');
      const token = raw ? (JSON.parse(raw) as { access_token?: string }).access_token : undefined;
      const response = await fetch('/scenarios', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token ?? ''}` },
        body: JSON.stringify({ ...scenario, website }),
      });
      return { status: response.status, text: await response.text() };
    },
    { body, website: site.url },
  );
  expect(answer.status, answer.text).toBe(201);
  return (JSON.parse(answer.text) as { id: string }).id;
}

/** A badge's background colour as [r, g, b]. */
async function backgroundRgb(locator: Locator): Promise<[number, number, number]> {
  // Runs in the page; the tests' tsconfig has no DOM types.
  const color = await locator.evaluate((el) => (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(el).backgroundColor);
  const parts = /^rgba?\((\d+), (\d+), (\d+)/.exec(color);
  expect(parts, color).not.toBeNull();
  return [Number(parts![1]), Number(parts![2]), Number(parts![3])];
}

const row = (page: Page, name: string) => page.getByTestId('scenario-row').filter({ hasText: name });
const toast = (page: Page, title: string) => page.getByTestId('toast').filter({ hasText: title });

test('AI Browser: empty state, runs that pass and fail, details, code, search, run all, delete', async ({ page, context }) => {
  test.setTimeout(240_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.setViewportSize({ width: 1280, height: 800 });
  const email = newEmail();
  await signUp(page, email, 'secret123');
  await signIn(page, email, 'secret123');
  await expect(page).toHaveURL(/\/dashboard\/projects$/, { timeout: 20_000 });

  // The empty state, with Run All disabled and the demo link.
  await page.getByRole('link', { name: 'AI Browser' }).first().click();
  await expect(page).toHaveURL(/\/dashboard\/scans$/);
  // The route's code loads on first visit: allow for a busy machine.
  await expect(page.getByRole('heading', { name: 'AI Browser', level: 1 })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText('No test scenarios found')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('button', { name: 'Run All Scenarios' })).toBeDisabled();
  await expect(page.getByRole('link', { name: 'Live Browser Demo' })).toHaveAttribute('href', '/vibe-loop');
  await snapBoth(page, 'scenarios-empty');

  // Two scenarios saved through the API appear with their short id, step count and 'Ready'.
  const passingId = await createScenario(page, PASSING);
  const failingId = await createScenario(page, FAILING);
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(page.getByTestId('scenario-row')).toHaveCount(2);
  await expect(row(page, PASSING.summarized_actions).getByTestId('scenario-short-id')).toHaveText(passingId.slice(0, 8));
  await expect(row(page, PASSING.summarized_actions).getByTestId('scenario-steps')).toHaveText('4');
  await expect(row(page, FAILING.summarized_actions).getByTestId('scenario-short-id')).toHaveText(failingId.slice(0, 8));
  await expect(row(page, FAILING.summarized_actions).getByTestId('scenario-steps')).toHaveText('3');
  await expect(row(page, PASSING.summarized_actions).getByTestId('scenario-status')).toHaveText('Ready');

  // Run: the toast, then the real result in green.
  await page.getByRole('button', { name: `Run ${PASSING.summarized_actions}` }).click();
  await expect(toast(page, 'Test scenario started')).toBeVisible();
  const passedBadge = row(page, PASSING.summarized_actions).getByTestId('scenario-status');
  await expect(passedBadge).toHaveText('Passed', { timeout: 60_000 });
  const [gr, gg, gb] = await backgroundRgb(passedBadge);
  expect(gg).toBeGreaterThan(gr);
  expect(gg).toBeGreaterThan(gb);

  // The failing one turns red.
  await page.getByRole('button', { name: `Run ${FAILING.summarized_actions}` }).click();
  const failedBadge = row(page, FAILING.summarized_actions).getByTestId('scenario-status');
  await expect(failedBadge).toHaveText('Failed', { timeout: 60_000 });
  const [rr, rg, rb] = await backgroundRgb(failedBadge);
  expect(rr).toBeGreaterThan(rg);
  expect(rr).toBeGreaterThan(rb);
  await snapBoth(page, 'scenarios-table');

  // View Details: the failed step, its error and the screenshot at the failure.
  await page.getByRole('button', { name: `More actions for ${FAILING.summarized_actions}` }).click();
  await page.getByRole('menuitem', { name: 'View Details' }).click();
  const details = page.getByRole('dialog', { name: FAILING.summarized_actions });
  await expect(details.getByText('Step 3 failed')).toBeVisible({ timeout: 20_000 });
  await expect(details.getByTestId('scenario-step').nth(2)).toHaveAttribute('data-status', 'failed');
  await expect(details.getByTestId('scenario-step').nth(2)).toContainText('Expect the button “Checkout” to be visible');
  await expect(details.getByTestId('scenario-step').nth(0)).toHaveAttribute('data-status', 'passed');
  const screenshot = details.getByTestId('run-screenshot');
  await expect(screenshot).toBeVisible({ timeout: 15_000 });
  await expect.poll(() => screenshot.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(100);
  await expect(details.getByTestId('run-history-row')).toHaveCount(1);
  await expect(details.getByRole('button', { name: 'Download trace' })).toBeVisible();
  await expect(details.getByText(/npx playwright show-trace trace-/)).toBeVisible();
  await snapBoth(page, 'scenarios-details');
  await details.getByRole('button', { name: 'Close' }).click();

  // View Code: the Playwright file, copied to the clipboard.
  await page.getByRole('button', { name: `More actions for ${PASSING.summarized_actions}` }).click();
  await page.getByRole('menuitem', { name: 'View Code' }).click();
  const code = page.getByRole('dialog', { name: 'Playwright test' });
  await expect(code.getByTestId('scenario-code')).toContainText('@playwright/test');
  await code.getByRole('button', { name: 'Copy' }).click();
  await expect(code.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText())).toContain(
    '@playwright/test',
  );
  await snapBoth(page, 'scenarios-code');
  await code.getByRole('button', { name: 'Close' }).click();

  // Search: name or URL, case-insensitive; nothing found says so.
  const search = page.getByRole('searchbox', { name: 'Search scenarios' });
  await search.fill('CHECKOUT');
  await expect(page.getByTestId('scenario-row')).toHaveCount(1);
  await search.fill('no such scenario');
  await expect(page.getByText('No matching scenarios')).toBeVisible();
  await search.fill('');
  await expect(page.getByTestId('scenario-row')).toHaveCount(2);

  // Run All: the notice counts the real results once both runs have finished.
  await page.getByRole('button', { name: 'Run All Scenarios' }).click();
  await expect(toast(page, 'All test scenarios started')).toBeVisible();
  await expect(page.getByTestId('run-all-notice')).toHaveText('1 of 2 tests passed', { timeout: 90_000 });
  await expect(passedBadge).toHaveText('Passed');
  await expect(failedBadge).toHaveText('Failed');
  await snapBoth(page, 'scenarios-run-all');

  // Delete, with its confirmation, down to the empty state again.
  for (const name of [FAILING.summarized_actions, PASSING.summarized_actions]) {
    await page.getByRole('button', { name: `More actions for ${name}` }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete test scenario' });
    await expect(confirm.getByText('Are you sure you want to delete this test scenario?')).toBeVisible();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(toast(page, 'Test scenario deleted').first()).toBeVisible();
    await expect(row(page, name)).toHaveCount(0);
  }
  await expect(page.getByText('No test scenarios found')).toBeVisible();

  // The error state: the spec's message with the call's status and detail, a toast, and Retry.
  await page.route('**/scenarios', (route) =>
    route.request().method() === 'GET' && route.request().resourceType() !== 'document'
      ? route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ detail: 'The database is starting' }) })
      : route.fallback(),
  );
  // With a list already shown, a failed refresh keeps it and says so above it.
  await page.getByRole('button', { name: 'Refresh' }).click();
  // The query client retries a 5xx twice before giving up.
  await expect(page.getByText('Failed to load scenarios. Please try again later.')).toBeVisible({ timeout: 30_000 });
  await page.reload();
  const problem = page.getByRole('alert').filter({ hasText: 'There was a problem loading your test scenarios' });
  await expect(problem).toBeVisible({ timeout: 30_000 });
  await expect(problem.getByText('Failed to fetch scenarios: 503 - The database is starting')).toBeVisible();
  await expect(toast(page, 'Failed to load test scenarios').first()).toBeVisible();
  await snapBoth(page, 'scenarios-error');
  await page.unrouteAll();
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByText('No test scenarios found')).toBeVisible();
});
