import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { animationsDone, closeToasts, signedIn, snapBoth, startTestSite, type TestPage } from './support';

// Triage on the project page: a real scan of a tiny site with an exposed .env file (a critical finding), the finding
// marked as a false positive (the reason is required), another as an accepted risk with an expiry, both in their own
// collapsed section with who and why, the baseline exported as a file, and one reopened. Before that, the critical
// finding's fix prompt is copied (and holds no secret of the site), and the finding is checked again before and
// after the site's owner removes the file ('Checking…' while the check runs), each answer then a row of the History.

const PAGES: Record<string, TestPage> = {
  '/': { type: 'text/html; charset=utf-8', body: '<!doctype html><html><head><title>Triage shop</title></head><body><h1>Triage shop</h1></body></html>' },
  '/.env': { type: 'text/plain', body: 'APP_ENV=production\nDB_PASSWORD=correct-horse-battery-staple\n' },
};

let site: Awaited<ReturnType<typeof startTestSite>>;

test.beforeAll(async () => {
  site = await startTestSite(PAGES, { type: 'text/html', body: '<!doctype html><title>Not found</title><h1>Not found</h1>' });
});
test.afterAll(async () => {
  await site.close();
});

test('triage: mark as false positive, accept a risk, see them apart, export the baseline, reopen', async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  const email = await signedIn(page);
  const toast = (text: string) => page.getByTestId('toast').filter({ hasText: text }).first();

  await page.getByRole('button', { name: 'New Project', exact: true }).click();
  const create = page.getByRole('dialog', { name: 'Create New Project' });
  await create.getByLabel('Project Name').fill('Triage shop');
  await create.getByLabel('Website URL').fill(site.url);
  await create.getByRole('button', { name: 'Create Project', exact: true }).click();
  await expect(create).toBeHidden();
  await page.getByTestId('project-card').getByRole('link', { name: 'Triage shop' }).click();
  await page.getByRole('button', { name: 'Run Test', exact: true }).click();
  await expect(page.getByTestId('scan-grade')).toBeVisible({ timeout: 150_000 });
  const counts = page.getByTestId('severity-counts');
  await expect(counts).toContainText('Critical: 1');

  // The critical finding: the reason is required, then it leaves the counts and shows in the suppressed section.
  const critical = page.getByTestId('findings-critical').getByTestId('finding').first();
  const criticalTitle = (await critical.getByRole('button').first().innerText()).split('\n')[0]!;
  await critical.getByRole('button').first().click();

  // 'Copy fix prompt': the finding as a request to an AI coding tool, without the secret the site exposed.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await critical.getByRole('button', { name: 'Copy fix prompt', exact: true }).click();
  await expect(critical.getByRole('button', { name: 'Fix prompt copied', exact: true })).toBeVisible();
  const prompt = await page.evaluate<string>('navigator.clipboard.readText()');
  expect(prompt).toContain(`vibeeval found in my app at ${site.url}`);
  expect(prompt).toContain(`# ${criticalTitle} (critical,`);
  expect(prompt).toContain('## How to verify');
  expect(prompt).not.toContain('correct-horse-battery-staple');

  // 'Check again': queued and run by the job queue; the button says 'Checking…' while the site is held, then the
  // answer: still there. Then the site's owner removes the file, and the check says it is fixed.
  const envFile = PAGES['/.env']!;
  let release = () => undefined as void;
  const released = new Promise<void>((resolve) => (release = resolve));
  envFile.held = () => released;
  await critical.getByRole('button', { name: 'Check again', exact: true }).click();
  await expect(critical.getByRole('button', { name: 'Checking…' })).toBeVisible();
  await expect(critical.getByRole('button', { name: 'Checking…' })).toBeDisabled();
  // The window around the button at both widths: the site holds the check's request meanwhile, so this must stay well
  // inside the engine's request timeout (a full-page pair takes seconds on a busy machine).
  const checking = critical.getByRole('button', { name: 'Checking…' });
  await closeToasts(page);
  for (const [width, height] of [
    [1280, 800],
    [375, 812],
  ] as const) {
    await page.setViewportSize({ width, height });
    // The narrow layout renders once more after the resize: scrolled again until the button stays in the middle.
    await expect(async () => {
      // A string (this file is type-checked without the DOM library), called here: evaluate would not call a function's text.
      await page.evaluate("[...document.querySelectorAll('button')].find((b) => b.textContent.includes('Checking…')).scrollIntoView({ block: 'center', behavior: 'instant' })");
      const box = await checking.boundingBox();
      expect(box && box.y > 100 && box.y + box.height < height - 100).toBe(true);
    }).toPass({ timeout: 5_000 });
    await page.screenshot({ path: join('test-results', 'screens', `finding-checking-${width}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  release();
  delete envFile.held;
  await expect(critical.getByTestId('recheck-answer')).toContainText('Still there');
  await expect(critical.getByRole('button', { name: 'Check again', exact: true })).toBeEnabled();
  delete PAGES['/.env'];
  await critical.getByRole('button', { name: 'Check again', exact: true }).click();
  await expect(critical.getByTestId('recheck-answer')).toContainText('Fixed');
  await expect(critical.getByTestId('recheck-answer')).toContainText('Checked again just now');
  PAGES['/.env'] = envFile;
  await snapBoth(page, 'finding-fix-prompt');

  // Each answer is a row of the project's History: when, which finding, Fixed or Still there (newest first).
  await page.getByRole('tab', { name: 'History', exact: true }).click();
  const rechecks = page.getByTestId('recheck-history').getByTestId('recheck-row');
  await expect(rechecks).toHaveCount(2);
  await expect(rechecks.nth(0).getByTestId('recheck-finding')).toHaveText(criticalTitle);
  await expect(rechecks.nth(0).getByTestId('recheck-status')).toHaveText('Fixed');
  await expect(rechecks.nth(1).getByTestId('recheck-finding')).toHaveText(criticalTitle);
  await expect(rechecks.nth(1).getByTestId('recheck-status')).toHaveText('Still there');
  await animationsDone(page);
  await snapBoth(page, 'history-rechecks');
  await page.getByRole('tab', { name: 'Overview', exact: true }).click();
  await expect(critical).toBeVisible();

  await critical.getByRole('button', { name: 'Mark as false positive', exact: true }).click();
  const dialog = page.getByTestId('decision-dialog');
  await expect(dialog.getByRole('heading', { name: 'Mark as false positive' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(dialog.getByText('Reason is required')).toBeVisible();
  await animationsDone(page);
  await snapBoth(page, 'triage-dialog');
  await dialog.getByLabel('Reason').fill('The file holds dummy values for the demo.');
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(toast('Marked as false positive')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(counts).toContainText('Critical: 0');
  await expect(page.getByTestId('findings-critical')).toHaveCount(0);
  // The header's grade is the scan's new one.
  const grade = (await page.getByTestId('scan-grade').innerText()).trim();
  await expect(page.getByLabel(`Latest scan grade ${grade}`, { exact: true })).toBeVisible();

  // Another finding accepted as a risk until a day next year.
  const other = page.getByTestId('finding').first();
  await other.getByRole('button').first().click();
  await other.getByRole('button', { name: 'Accept risk', exact: true }).click();
  await dialog.getByLabel('Reason').fill('Fixed with the next release.');
  const nextYear = `${new Date().getUTCFullYear() + 1}-06-30`;
  await dialog.getByLabel('Expires on (optional)').fill(nextYear);
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(toast('Risk accepted')).toBeVisible();

  // Their own collapsed section: who, why, until when.
  const suppressed = page.getByTestId('suppressed-findings');
  await suppressed.getByRole('button', { name: 'Suppressed: 2' }).click();
  const entries = suppressed.getByTestId('suppressed-finding');
  await expect(entries).toHaveCount(2);
  const decidedCritical = entries.filter({ hasText: criticalTitle });
  await expect(decidedCritical).toContainText('False positive');
  await expect(decidedCritical).toContainText('The file holds dummy values for the demo.');
  await expect(decidedCritical).toContainText(email);
  await expect(entries.filter({ hasText: 'Accepted risk' })).toContainText('Expires');
  await animationsDone(page);
  await snapBoth(page, 'triage-suppressed');

  // The baseline file, as `vibeeval scan --baseline` reads it.
  const [download] = await Promise.all([page.waitForEvent('download'), suppressed.getByRole('button', { name: 'Export baseline', exact: true }).click()]);
  expect(download.suggestedFilename()).toBe('vibeeval-baseline.json');
  const baseline = JSON.parse(readFileSync(await download.path(), 'utf8')) as Array<{ decision: string; reason: string; expires_at: string | null }>;
  expect(baseline.map((entry) => entry.decision).sort()).toEqual(['accepted_risk', 'false_positive']);
  expect(baseline.find((entry) => entry.decision === 'accepted_risk')!.expires_at).toBe(`${nextYear}T23:59:59.999Z`);

  // Reopened: the critical finding counts again.
  await decidedCritical.getByRole('button', { name: 'Reopen', exact: true }).click();
  await expect(toast('Finding reopened')).toBeVisible();
  await expect(counts).toContainText('Critical: 1');
  await expect(suppressed.getByRole('button', { name: 'Suppressed: 1' })).toBeVisible();
});
