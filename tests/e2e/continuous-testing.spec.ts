import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations, signedIn, snapBoth, startTestSite, openReady, reloadReady } from './support';

// The continuous testing screen against the real server: reached from a project's Overview, the site token in the
// script tag (copied, rotated), a daily schedule with its next run, a report posted as the monitoring script would
// post it showing up in Event History, and the spec's error texts when the API fails.

/** Makes the API call `method path` (a fetch, not the page load of the same path) answer `status` with `body`. */
async function failApi(page: Page, method: string, path: RegExp, status: number, body: unknown) {
  await page.route(path, async (route) => {
    const request = route.request();
    if (request.resourceType() !== 'fetch' || request.method() !== method) return route.fallback();
    await route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) });
  });
}

const toast = (page: Page, title: string) => page.getByTestId('toast').filter({ hasText: title });

test('continuous testing: from the project Overview, the site token, a daily schedule, a reported build, errors', async ({ page, context, request }) => {
  test.setTimeout(120_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const site = await startTestSite({ '/': { type: 'text/html', body: '<!doctype html><title>Watched</title><h1>Watched shop</h1>' } }, { type: 'text/html', body: 'Not found' });
  try {
    await page.setViewportSize({ width: 1280, height: 800 });
    await signedIn(page);

    // The sidebar item leads to the page; with no project the page points to Projects.
    const navItem = page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Continuous Testing' });
    await expect(navItem).not.toHaveAttribute('aria-disabled', 'true');
    await navItem.click();
    await expect(page).toHaveURL(/\/dashboard\/continuous-testing$/);
    await expect(navItem).toHaveAttribute('aria-current', 'page');
    await expect(page.getByText('No projects yet')).toBeVisible({ timeout: 20_000 });
    await expect(page.getByRole('link', { name: 'Go to Projects' })).toHaveAttribute('href', '/dashboard/projects');
    await expect(page.getByRole('link', { name: 'Integration guide' })).toHaveAttribute('href', '/vibe-loop');

    // A project, then its Overview's way in.
    await openReady(page, '/dashboard/projects');
    await page.getByRole('button', { name: 'New Project', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Create New Project' });
    await dialog.getByLabel('Project Name').fill('Watched shop');
    await dialog.getByLabel('Website URL').fill(site.url);
    await dialog.getByRole('button', { name: 'Create Project', exact: true }).click();
    await expect(dialog).toBeHidden();
    await page.getByTestId('project-card').getByRole('link', { name: 'Watched shop' }).click();
    await page.getByRole('link', { name: 'Open continuous testing' }).click();
    await expect(page).toHaveURL(/\/dashboard\/continuous-testing\?project=/);
    await expect(page.getByRole('heading', { name: 'Continuous Testing', level: 1 })).toBeVisible();
    await expect(page.getByTestId('current-build')).toContainText('No builds yet');
    await expect(page.getByTestId('usage-label')).toHaveText('0 of 1,000 events');

    // A daily schedule at 9 AM in the browser's zone: saved, with its next run.
    const schedule = page.getByRole('form', { name: 'Scheduled re-scans' });
    await expect(schedule.getByTestId('next-run')).toHaveText('Not scheduled');
    // On a plan without daily schedules (answered here as GET /plan_limits does on Basic), Daily is offered greyed.
    const basic = {
      tier: 'basic',
      subscribed: true,
      limits: { projects: 2, scenarios: 2, api_plan: null, report_formats: ['html'], monitor_frequencies: ['off', 'monthly'], seats: 1 },
      used: { projects: 1, scenarios: 0 },
    };
    await page.route(/\/plan_limits$/, (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(basic) }));
    await reloadReady(page);
    await expect(schedule.getByRole('option', { name: 'Daily (not in your plan)' })).toBeDisabled();
    await expect(schedule.getByRole('option', { name: 'Weekly (not in your plan)' })).toBeDisabled();
    await expect(schedule.getByRole('option', { name: 'Monthly', exact: true })).toBeEnabled();
    await page.unroute(/\/plan_limits$/);
    await reloadReady(page);
    await expect(schedule.getByRole('option', { name: 'Daily', exact: true })).toBeEnabled();
    await schedule.getByLabel('Frequency').selectOption('daily');
    await schedule.getByLabel('Hour').selectOption({ label: '9 AM' });
    await expect(schedule.getByLabel('Day')).toHaveCount(0);
    await schedule.getByRole('button', { name: 'Save schedule' }).click();
    await expect(toast(page, 'Schedule saved')).toBeVisible();
    await expect(schedule.getByTestId('next-run')).toHaveText(/^[A-Z][a-z]{2} \d{1,2}, 9:00 AM$/);
    await schedule.getByLabel('Frequency').selectOption('weekly');
    await expect(schedule.getByLabel('Day')).toBeVisible();
    // Monthly: the first of the chosen weekday in each month.
    await schedule.getByLabel('Frequency').selectOption('monthly');
    await schedule.getByLabel('On the first').selectOption({ label: 'Monday' });
    await schedule.getByRole('button', { name: 'Save schedule' }).click();
    await expect(schedule.getByTestId('next-run')).toHaveText(/^[A-Z][a-z]{2} [1-7], 9:00 AM$/);
    await snapBoth(page, 'continuous-overview');
    await expectNoSeriousA11yViolations(page);

    // Installation: the tag carries the project's site token; Copy puts it on the clipboard.
    await page.getByRole('tab', { name: 'Installation' }).click();
    const token = (await page.getByTestId('site-token').textContent()) ?? '';
    expect(token).toMatch(/^vst_/);
    const origin = new URL(page.url()).origin;
    const tag = `<script src="${origin}/latest.js" data-site="${token}" async></script>`;
    await expect(page.getByTestId('script-tag')).toHaveText(tag);
    await page.getByRole('button', { name: 'Copy script tag', exact: true }).click();
    await expect.poll(() => page.evaluate<string>('navigator.clipboard.readText()')).toBe(tag);
    // While it says Copied, its accessible name says so too.
    await expect(page.getByRole('button', { name: 'Copied', exact: true })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    for (const guide of ['Lovable', 'Bolt', 'v0 / Next.js', 'Vite', 'Plain HTML']) await expect(page.getByRole('tab', { name: guide })).toBeVisible();
    await page.getByRole('tab', { name: 'v0 / Next.js' }).click();
    await expect(page.getByText('strategy="afterInteractive"')).toBeVisible();
    await snapBoth(page, 'continuous-installation');

    // The monitoring script's report, as the script sends it: a build in Event History (live, or after Refresh).
    const report = await request.post('/continuous-testing', { data: { site_token: token, hash: '0a1b2c3d', hostname: '127.0.0.1' } });
    expect(report.status()).toBe(202);
    await page.getByRole('tab', { name: 'Event History' }).click();
    const row = page.getByTestId('build-row').filter({ hasText: '0a1b2c3d' });
    await expect(async () => {
      if ((await row.count()) === 0) await page.getByRole('button', { name: 'Refresh' }).click();
      await expect(row).toBeVisible({ timeout: 2000 });
    }).toPass({ timeout: 20_000 });
    await expect(row).toContainText('Content change');
    await expect(row.getByTestId('build-time')).toHaveText(/^[A-Z][a-z]{2} \d{1,2}, \d{1,2}:\d\d (AM|PM)$/);
    await snapBoth(page, 'continuous-history');
    await page.getByRole('tab', { name: 'Overview' }).click();
    await expect(page.getByTestId('current-build-hash')).toHaveText('0a1b2c3d');
    await expect(page.getByTestId('usage-label')).toHaveText('1 of 1,000 events');

    // Rotate token: confirmed, the tag changes and the old token is refused.
    await page.getByRole('tab', { name: 'Installation' }).click();
    await page.getByRole('button', { name: 'Rotate token' }).click();
    const confirm = page.getByRole('alertdialog');
    await expect(confirm).toContainText('Pages carrying the old token stop reporting');
    await confirm.getByRole('button', { name: 'Rotate token' }).click();
    await expect(toast(page, 'Site token rotated')).toBeVisible();
    await expect(page.getByTestId('site-token')).not.toHaveText(token);
    const stale = await request.post('/continuous-testing', { data: { site_token: token, hash: '0a1b2c3e', hostname: '127.0.0.1' } });
    expect(stale.status()).toBe(404);

    // Builds as the re-scans judge them (answered here: judging needs real scans): status colours, what changed,
    // the scan link, and 'Unknown time' for a timestamp that does not parse.
    const projectId = new URL(page.url()).searchParams.get('project') ?? '';
    const judged = judgedBuilds(projectId, site.url);
    await page.route(/\/continuous_builds\?/, async (route) => {
      if (route.request().resourceType() !== 'fetch') return route.fallback();
      await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(judged) });
    });
    await page.getByRole('tab', { name: 'Event History' }).click();
    await page.getByRole('button', { name: 'Refresh' }).click();
    const rows = page.getByTestId('build-row');
    await expect(rows).toHaveCount(4);
    await expect(rows.getByTestId('build-status')).toHaveText(['Error', 'Warning', 'Success', 'Error']);
    await expect(rows.nth(0)).toContainText('2 new findings, 1 fixed');
    await expect(rows.nth(0)).toContainText('Supabase table readable by anyone');
    await expect(rows.nth(1)).toContainText('Scheduled');
    await expect(rows.nth(2)).toContainText('Nothing new');
    await expect(rows.nth(3)).toContainText('The site did not load: net::ERR_CONNECTION_REFUSED');
    await expect(rows.nth(3).getByTestId('build-time')).toHaveText('Unknown time');
    await expect(rows.nth(0).getByRole('link', { name: 'View scan' })).toHaveAttribute('href', `/dashboard/projects/${projectId}`);
    await snapBoth(page, 'continuous-history-judged');
    await page.unroute(/\/continuous_builds\?/);

    // Errors on Refresh (the server is retried twice): the overview fails on the page, the builds list with the spec's
    // toast and message.
    await failApi(page, 'GET', /\/monitoring$/, 500, { detail: 'boom' });
    await failApi(page, 'GET', /\/continuous_builds\?/, 500, { detail: 'boom' });
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(page.getByText('Failed to load continuous testing data. Please try again.')).toBeVisible({ timeout: 20_000 });
    await expect(toast(page, 'Failed to load continuous builds')).toContainText('Failed to fetch continuous builds: 500 - boom', { timeout: 20_000 });
    await snapBoth(page, 'continuous-error');
  } finally {
    await site.close();
  }
});

/** Four judged builds of the project, newest first: new high findings, a scheduled medium, nothing new, a broken site. */
function judgedBuilds(projectId: string, url: string) {
  const changes = { previous_scan_id: 'scan-0', grade: 'C', previous_grade: 'B', new_findings: [], new_count: 0, fixed_count: 0, error: null };
  const build = (n: number, over: Record<string, unknown>) => ({
    id: `build-${n}`,
    project_id: projectId,
    build_hash: `feed000${n}`,
    status: 'success',
    url,
    timestamp: `2026-11-2${4 - n}T14:0${n}:00.000Z`,
    trigger: 'script',
    scan_id: `scan-${n}`,
    changes,
    finished_at: `2026-11-2${4 - n}T14:1${n}:00.000Z`,
    ...over,
  });
  const findings = [
    { fingerprint: 'f1', title: 'Supabase table readable by anyone', severity: 'critical' },
    { fingerprint: 'f2', title: 'Stripe secret key in the page source', severity: 'high' },
  ];
  return [
    build(1, { status: 'error', changes: { ...changes, new_findings: findings, new_count: 2, fixed_count: 1 } }),
    build(2, {
      status: 'warning',
      trigger: 'schedule',
      changes: { ...changes, new_findings: [{ fingerprint: 'f3', title: 'Missing Content-Security-Policy', severity: 'medium' }], new_count: 1 },
    }),
    build(3, {}),
    build(4, { status: 'error', timestamp: 'not a date', changes: { ...changes, grade: null, error: 'net::ERR_CONNECTION_REFUSED' } }),
  ];
}
