import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { animationsDone, expectNoSeriousA11yViolations, signedIn, snapBoth, startTestSite, type TestPage } from './support';

// Scan history on the project page: a tiny site scanned twice, its page changing in between (the exposed .env file
// goes, a .git directory appears). The History tab lists both scans (date, trigger, grade, counts) and shows what is
// new, what was fixed and what stayed, latest against previous by default and for any two chosen.

const HTML = 'text/html; charset=utf-8';
/** The site before its change (made afresh for each run: a retry starts from it again). */
const initialPages = (): Record<string, TestPage> => ({
  '/': { type: HTML, body: '<!doctype html><html><head><title>History shop</title></head><body><h1>History shop</h1></body></html>' },
  '/.env': { type: 'text/plain', body: 'APP_ENV=production\nDB_PASSWORD=correct-horse-battery-staple\n' },
});
let PAGES: Record<string, TestPage> = {};
/** The site after its change: the .env file removed, a git repository deployed by mistake. */
function changeSite() {
  delete PAGES['/.env'];
  PAGES['/.git/HEAD'] = { type: 'text/plain', body: 'ref: refs/heads/main\n' };
  PAGES['/.git/config'] = { type: 'text/plain', body: '[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n' };
}

let site: Awaited<ReturnType<typeof startTestSite>>;

test.beforeAll(async () => {
  PAGES = initialPages();
  site = await startTestSite(PAGES, { type: HTML, body: '<!doctype html><title>Not found</title><h1>Not found</h1>' });
});
test.afterAll(async () => {
  await site.close();
});

test('scan history: two scans of a changing site, what is new, fixed and unchanged between any two', async ({ page }) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await signedIn(page);

  await page.getByRole('button', { name: 'New Project', exact: true }).click();
  const create = page.getByRole('dialog', { name: 'Create New Project' });
  await create.getByLabel('Project Name').fill('History shop');
  await create.getByLabel('Website URL').fill(site.url);
  await create.getByRole('button', { name: 'Create Project', exact: true }).click();
  await expect(create).toBeHidden();
  await page.getByTestId('project-card').getByRole('link', { name: 'History shop' }).click();

  // Before any scan: the History tab says how it fills.
  const historyTab = page.getByRole('tab', { name: 'History', exact: true });
  await historyTab.click();
  await expect(page.getByTestId('scan-history')).toContainText('No scans yet. Run Test to scan this site; every scan will be listed here.');
  await expect(page.getByTestId('scan-diff')).toHaveCount(0);
  await snapBoth(page, 'scan-history-empty');

  // The first scan appears in the open History tab as it runs and completes (the live stream refreshes it).
  const runTest = page.getByRole('button', { name: 'Run Test', exact: true });
  await runTest.click();
  const rows = page.getByTestId('history-row');
  await expect(rows.first().getByLabel(/^Scan grade /)).toBeVisible({ timeout: 150_000 });
  await expect(page.getByTestId('scan-diff')).toContainText('This is the first completed scan: run another to see what changed.');
  await page.getByRole('tab', { name: 'Overview', exact: true }).click();
  await expect(page.getByTestId('findings-critical')).toContainText('Environment file exposed');

  changeSite();
  await runTest.click();
  // The re-scan is done when the Overview lists what it fixed.
  await expect(page.getByTestId('fixed-findings')).toContainText('Environment file exposed', { timeout: 150_000 });
  await expect(runTest).toBeEnabled();

  await historyTab.click();
  await expect(rows).toHaveCount(2);
  for (const row of await rows.all()) {
    await expect(row.getByTestId('history-trigger')).toHaveText('Manual');
    await expect(row.getByLabel(/^Scan grade /)).toBeVisible();
    await expect(row.getByTestId('history-tally')).toHaveText(/^(No issues|\d+ issues?)/);
  }

  // Latest against previous: the .git directory is new, the .env file fixed, the rest unchanged.
  const diff = page.getByTestId('diff-result');
  await expect(diff.getByTestId('diff-new')).toContainText('Git repository exposed');
  await expect(diff.getByTestId('diff-new')).not.toContainText('Environment file exposed');
  await expect(diff.getByTestId('diff-fixed')).toContainText('Environment file exposed');
  await expect(diff.getByTestId('diff-fixed')).not.toContainText('Git repository exposed');
  await expect(diff.getByTestId('diff-count-new')).toHaveText(/^New: [1-9]/);
  await expect(diff.getByTestId('diff-count-fixed')).toHaveText(/^Fixed: [1-9]/);
  const unchanged = diff.getByTestId('diff-unchanged');
  if (await unchanged.count()) {
    await unchanged.getByRole('button').first().click();
    await expect(unchanged.getByTestId('diff-finding').first()).toBeVisible();
    await expect(unchanged).not.toContainText('Git repository exposed');
  }
  await animationsDone(page);
  await expectNoSeriousA11yViolations(page);
  await snapBoth(page, 'scan-history');

  // Any two, either way round: from the latest to the first, the .env file is the new one.
  const options = page.getByTestId('diff-to').locator('option');
  const [latest, first] = [await options.nth(0).getAttribute('value'), await options.nth(1).getAttribute('value')];
  await page.getByTestId('diff-from').selectOption(latest ?? '');
  await expect(page.getByText('Choose two different scans.')).toBeVisible();
  await page.getByTestId('diff-to').selectOption(first ?? '');
  await expect(diff.getByTestId('diff-new')).toContainText('Environment file exposed');
  await expect(diff.getByTestId('diff-fixed')).toContainText('Git repository exposed');
  await animationsDone(page);
  await snapBoth(page, 'scan-history-reversed');

  // The re-scan's report says what changed since the previous scan, first thing after its scores.
  await page.getByRole('link', { name: 'Reports' }).first().click();
  const recent = page.getByTestId('recent-report');
  await expect(recent).toHaveCount(2);
  const [preview] = await Promise.all([page.context().waitForEvent('page'), recent.first().click()]);
  await preview.waitForLoadState();
  const signed = new URL(preview.url()).searchParams.get('signed_url');
  expect(signed).toMatch(/\/reports\/[^/]+\/view\?exp=\d+&sig=/);
  await preview.goto(signed ?? '');
  const since = preview.locator('#since-previous');
  await expect(since.getByRole('heading', { name: 'Since the previous scan' })).toBeVisible();
  await expect(since).toContainText(/[1-9]\d* new, [1-9]\d* fixed/);
  await expect(since).toContainText('Git repository exposed');
  await expect(since).toContainText('Environment file exposed');
  for (const width of [1280, 375]) {
    await preview.setViewportSize({ width, height: 800 });
    await since.screenshot({ path: join('test-results', 'screens', `scan-history-report-${width}.png`) });
  }
  await preview.close();

  // Each scan in the history opens its own report: the first scan's has nothing to compare with.
  await page.goBack();
  await historyTab.click();
  await expect(page.getByTestId('history-report')).toHaveCount(2);
  await page.getByTestId('history-row').nth(1).getByTestId('history-report').click();
  await expect(page).toHaveURL(/\/report-preview\?signed_url=/, { timeout: 15_000 });
  const firstReport = new URL(page.url()).searchParams.get('signed_url');
  expect(firstReport).toMatch(/\/reports\/[^/]+\/view\?exp=\d+&sig=/);
  expect(firstReport).not.toBe(signed);
  const firstHtml = await (await page.request.get(firstReport ?? '')).text();
  expect(firstHtml).toContain('Environment file exposed');
  expect(firstHtml).not.toContain('Since the previous scan');
});
