import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { animationsDone, gate, snap, startTestSite, type TestPage, snapBoth, snapWidths, signedIn, openReady, reloadReady } from './support';

// A tiny site on 127.0.0.1 for the real scan that Run Test starts: a weak Content-Security-Policy (several findings of
// one check on one page) and no other security headers, a cookie without HttpOnly/Secure, and an exposed .env file,
// so the scan has findings to show; an account page behind a login, so its coverage has something it could not check.
// Unknown paths are real 404s.
const PAGES: Record<string, TestPage> = {
  '/': {
    type: 'text/html; charset=utf-8',
    headers: { 'set-cookie': 'session=abc123; Path=/', 'content-security-policy': "script-src * 'unsafe-inline' 'unsafe-eval'" },
    body: `<!doctype html><html><head><title>Fixture shop</title></head><body>
      <h1>Fixture shop</h1><a href="/about">About</a> <a href="/account">Account</a>
      <form method="post" action="/login"><input name="email"><input name="password" type="password"><button>Sign in</button></form>
    </body></html>`,
  },
  // Held while the test looks at the running scan: a scan of this tiny site can end before the page shows it running.
  '/about': {
    type: 'text/html; charset=utf-8',
    body: '<!doctype html><html><head><title>About</title></head><body><p>About us</p><a href="/">Home</a></body></html>',
    held: () => aboutHeld.opened,
  },
  '/account': { type: 'text/plain', status: 401, body: 'Sign in first' },
  '/.env': { type: 'text/plain', body: 'APP_ENV=production\nDB_PASSWORD=correct-horse-battery-staple\nSTRIPE_SECRET_KEY=sk_live_51HxExampleExampleExample00\n' },
};

let aboutHeld = gate();
aboutHeld.open();
let site: Awaited<ReturnType<typeof startTestSite>>;
let siteUrl = '';

test.beforeAll(async () => {
  site = await startTestSite(PAGES, { type: 'text/html', body: '<!doctype html><title>Not found</title><h1>Not found</h1>' });
  siteUrl = site.url;
});

test.afterEach(() => aboutHeld.open());

test.afterAll(async () => {
  await site.close();
});

test('projects: create (validation first), card, detail, settings, run a real scan, delete', async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  const email = await signedIn(page);

  // The empty list.
  await expect(page.getByRole('heading', { name: 'Projects', level: 1 })).toBeVisible();
  await expect(page.getByText('Manage your project assets in one place')).toBeVisible();
  await expect(page.getByTestId('create-project-tile')).toBeVisible();
  await expect(page.getByTestId('project-card')).toHaveCount(0);
  await snapBoth(page, 'projects-empty');

  // The dialog: the spec's messages under the fields.
  await page.getByRole('button', { name: 'New Project', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Create New Project' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Create Project', exact: true }).click();
  await expect(dialog.getByText('Project name is required')).toBeVisible();
  await expect(dialog.getByText('Please enter a valid URL')).toBeVisible();
  await dialog.getByLabel('Project Name').fill('x'.repeat(51));
  await dialog.getByLabel('Website URL').fill('not a url');
  await dialog.getByLabel('Description').fill('d'.repeat(501));
  await dialog.getByRole('button', { name: 'Create Project', exact: true }).click();
  await expect(dialog.getByText('Project name cannot exceed 50 characters')).toBeVisible();
  await expect(dialog.getByText('Description cannot exceed 500 characters')).toBeVisible();
  await expect(dialog.getByText('Please enter a valid URL')).toBeVisible();
  await snapBoth(page, 'projects-dialog-validation');

  await dialog.getByLabel('Project Name').fill('Fixture shop');
  await dialog.getByLabel('Description').fill('The local fixture site');
  await dialog.getByLabel('Website URL').fill(siteUrl);
  await dialog.getByLabel('Credentials / Test User Details').fill('user: demo / pass: demo-secret-42');
  await dialog.getByRole('button', { name: 'Create Project', exact: true }).click();
  await expect(page.getByText('Project created')).toBeVisible();
  await expect(dialog).toBeHidden();

  // The card: instruction text (the name, as the instructions were empty), status, pages, last updated.
  const card = page.getByTestId('project-card');
  await expect(card).toHaveCount(1);
  await expect(card).toContainText('Fixture shop');
  await expect(card).toContainText('active');
  await expect(card).toContainText('1 page');
  await expect(card).toContainText(/Last updated (just now|\d+ minutes? ago)/);
  await snapBoth(page, 'projects-list');

  // Detail, Overview.
  await card.getByRole('link', { name: 'Fixture shop' }).click();
  await expect(page).toHaveURL(/\/dashboard\/projects\/[\w-]+$/);
  const projectUrl = page.url();
  await expect(page.getByRole('heading', { name: 'Fixture shop', level: 1 })).toBeVisible();
  const details = page.getByTestId('project-details');
  await expect(details.getByText('Project Details')).toBeVisible();
  await expect(details.getByRole('link', { name: siteUrl })).toHaveAttribute('href', siteUrl);
  await expect(details.getByTestId('last-tested')).toHaveText('Never');
  await expect(details.getByTestId('credentials-value')).not.toContainText('demo-secret-42');
  await details.getByRole('button', { name: 'Show credentials', exact: true }).click();
  await expect(details.getByTestId('credentials-value')).toContainText('demo-secret-42');
  await details.getByRole('button', { name: 'Hide credentials', exact: true }).click();
  await expect(page.getByText('No scan yet.')).toBeVisible();

  // Edit opens the Settings tab with the name field focused.
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await expect(page.getByRole('tab', { name: 'Settings' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByText('Project Settings')).toBeVisible();
  const settings = page.getByRole('form', { name: 'Project Settings' });
  await expect(settings.getByLabel('Project Name')).toBeFocused();
  await snapBoth(page, 'project-edit');

  // Settings: Cancel resets, a page count under 1 becomes 1, Save Changes saves.
  await settings.getByLabel('Website URL').fill('https://changed.example');
  await settings.getByRole('button', { name: 'Cancel', exact: true }).click();
  await expect(settings.getByLabel('Website URL')).toHaveValue(siteUrl);
  await expect(settings.getByLabel('Credentials')).toHaveAttribute('data-masked', 'true');
  await settings.getByRole('button', { name: 'Show', exact: true }).click();
  await expect(settings.getByLabel('Credentials')).toHaveValue('user: demo / pass: demo-secret-42');
  await settings.getByLabel('Website URL').fill('nope');
  await settings.getByRole('button', { name: 'Save Changes', exact: true }).click();
  await expect(settings.getByText('Please enter a valid URL')).toBeVisible();
  await settings.getByLabel('Website URL').fill(siteUrl);
  await settings.getByLabel('Test Instructions').fill('Fixture shop: check the sign-in form');
  await expect(settings.getByLabel('Project Name')).toHaveValue('Fixture shop: check the sign-in form');
  await settings.getByLabel('Project Status').selectOption('completed');
  await settings.getByLabel('Number of Pages').fill('0');
  await settings.getByRole('button', { name: 'Save Changes', exact: true }).click();
  await expect(page.getByText('Changes saved')).toBeVisible();
  await expect(settings.getByLabel('Number of Pages')).toHaveValue('1');
  await settings.getByLabel('Number of Pages').fill('3');
  // The project's PATCH answer: a save still on its way disables Save Changes, and with it Enter's submit.
  const projectSaved = () => page.waitForResponse((response) => response.request().method() === 'PATCH' && /\/project\/[^/]+$/.test(new URL(response.url()).pathname));
  // Enter submits the form (the toasts of the first save sit over the button at this width).
  const pagesSaved = projectSaved();
  await settings.getByLabel('Number of Pages').press('Enter');
  await pagesSaved;
  await expect(settings.getByRole('button', { name: 'Save Changes', exact: true })).toBeEnabled();
  await expect(settings.getByLabel('Number of Pages')).toHaveValue('3');
  await expect(page.getByRole('heading', { name: 'Fixture shop: check the sign-in form', level: 1 })).toBeVisible();
  // Active checks: off until chosen; saved on and read back after a reload, then off again for the passive scan below.
  const activeChecks = settings.getByRole('checkbox', { name: 'Active checks' });
  await expect(activeChecks).not.toBeChecked();
  const saveActive = async (checked: boolean) => {
    await settings.getByText('Active checks', { exact: true }).click();
    await expect(activeChecks).toBeChecked({ checked });
    const saved = projectSaved();
    await settings.getByLabel('Number of Pages').press('Enter');
    expect(((await (await saved).json()) as { active_mode?: boolean }).active_mode).toBe(checked);
  };
  await saveActive(true);
  await reloadReady(page);
  await page.getByRole('tab', { name: 'Settings' }).click();
  await expect(activeChecks).toBeChecked();
  await snapBoth(page, 'project-settings');
  await saveActive(false);

  // Run Test: a real scan of the fixture site, progress from the live stream, then the grade and findings.
  await page.getByRole('tab', { name: 'Overview' }).click();
  await expect(details.getByText('3 pages')).toBeVisible();
  await expect(details.getByTestId('status-badge')).toHaveText('completed');
  aboutHeld = gate();
  await page.getByRole('button', { name: 'Run Test', exact: true }).click();
  await expect(page.getByText('Test initiated')).toBeVisible();
  // While it runs (held at /about): the button is disabled and the live stream's progress shows pages and checks.
  await expect(page.getByRole('button', { name: 'Testing...' })).toBeDisabled();
  await expect(page.getByTestId('scan-progress-detail').first()).toContainText(/Pages \d+\/\d+ · Checks \d+\/\d+/, { timeout: 30_000 });
  await snap(page, 'project-scan-running-1280');
  aboutHeld.open();
  const grade = page.getByTestId('scan-grade');
  await expect(grade).toBeVisible({ timeout: 150_000 });
  await expect(grade).toHaveText(/^[A-F][+-]?$/);
  await expect(page.getByRole('button', { name: 'Run Test', exact: true })).toBeEnabled();
  await expect(details.getByTestId('last-tested')).not.toHaveText('Never');
  await expect(page.getByTestId('severity-counts')).toContainText('Critical');
  // The public API's words and split: issues (critical, high, medium), then warnings (low).
  await expect(page.getByTestId('finding-tally')).toHaveText(/^(No issues|\d+ issues?)(, \d+ warnings?)?$/);
  // The coverage says what could not be checked: the account page answered 401.
  await expect(page.getByTestId('coverage-gaps')).toContainText(`1 page needs a login and was not checked signed in: ${siteUrl}account.`);
  await expect(page.getByTestId('coverage-facts')).toContainText(/Coverage: \d+ pages and \d+ scripts? fetched/);
  const finding = page.getByTestId('finding').first();
  await expect(finding).toBeVisible();
  // No finding listed twice: the policy's weaknesses share a title and an address, and each row says which it is.
  const rows = await page.getByTestId('finding').locator('[data-part="item-trigger"]').allInnerTexts();
  expect(rows.length).toBeGreaterThan(2);
  expect(rows.filter((row, i) => rows.indexOf(row) !== i)).toEqual([]);
  expect(await page.getByTestId('finding-distinction').count()).toBeGreaterThanOrEqual(2);
  await expect(page.getByTestId('finding-distinction').filter({ hasText: "'unsafe-inline'" }).first()).toBeVisible();
  await finding.getByRole('button').first().click();
  await expect(finding.getByText('Remediation')).toBeVisible();
  // Let the accordion's opening animation finish before the screenshot.
  await animationsDone(page);
  await snapBoth(page, 'project-overview-findings');

  // Activity: the timeline with the test, and the recorded events.
  await page.getByRole('tab', { name: 'Activity' }).click();
  await expect(page.getByText('Project Timeline')).toBeVisible();
  await expect(page.getByText(`${email} created project`)).toBeVisible();
  await expect(page.getByText(`${email} ran test`)).toBeVisible();
  await expect(page.getByText('Recent Activity')).toBeVisible();
  await expect(page.getByTestId('activity-list').or(page.getByTestId('activity-empty'))).toBeVisible();
  // Event kinds read as on the Events page: 'Error', not 'error'.
  await expect(page.getByTestId('activity-event').filter({ hasText: 'Environment file exposed' }).first()).toContainText('Error');
  await expect(page.getByTestId('activity-event').filter({ hasText: 'Scan completed' }).first()).toContainText('Other');
  await snapBoth(page, 'project-activity');

  // The list shows the grade of the latest scan.
  await openReady(page, '/dashboard/projects');
  await expect(page.getByTestId('card-grade')).toHaveText(/^[A-F][+-]?$/);
  await expect(page.getByTestId('project-card')).toContainText('3 pages');
  await page.getByTestId('project-card').getByRole('link').click();

  // Delete, with the confirmation.
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm.getByText('Are you sure you want to delete this project?')).toBeVisible();
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page.getByText('Project deleted')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/projects$/);
  await expect(page.getByTestId('project-card')).toHaveCount(0);

  await openReady(page, projectUrl);
  await expect(page.getByText('Project not found')).toBeVisible();
  await page.getByRole('button', { name: 'Back to Projects', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard\/projects$/);
});

test('projects: two test accounts in Credentials, and how the last scan signed in as each', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await signedIn(page);

  // A third account is refused, naming the line and never its password.
  await page.getByRole('button', { name: 'New Project', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Create New Project' });
  await dialog.getByLabel('Project Name').fill('Signed-in shop');
  await dialog.getByLabel('Website URL').fill(siteUrl);
  const two = 'alice@example.com S3cret-one\nbob@example.com / S3cret-two';
  await dialog.getByLabel('Credentials / Test User Details').fill(`${two}\ncarol@example.com Th1rd-secret`);
  await dialog.getByRole('button', { name: 'Create Project', exact: true }).click();
  await expect(dialog.getByText('Credentials line 3: a third account: a scan signs in as at most 2 accounts')).toBeVisible();
  expect(await dialog.getByText(/^Credentials line/).innerText()).not.toContain('Th1rd-secret');
  await dialog.getByLabel('Credentials / Test User Details').fill(two);
  await dialog.getByRole('button', { name: 'Create Project', exact: true }).click();
  await expect(dialog).toBeHidden();
  await page.getByTestId('project-card').getByRole('link', { name: 'Signed-in shop' }).click();
  await expect(page.getByRole('heading', { name: 'Signed-in shop', level: 1 })).toBeVisible();

  // The last scan as stored: signed in as alice, not as bob (the engine fills coverage.signIns).
  const sample = JSON.parse(readFileSync(join(process.cwd(), 'engine', 'report', '__fixtures__', 'sample-result.json'), 'utf8')) as {
    coverage?: object;
    score: number;
    grade: string;
    headers: { grade: string };
    counts: object;
  };
  const result = {
    ...sample,
    coverage: {
      checksSkipped: [],
      ...sample.coverage,
      signIns: [
        { account: 'alice@example.com', signedIn: true, method: 'supabase' },
        { account: 'bob@example.com', signedIn: false, reason: 'the sign-in answered 400: invalid login credentials' },
      ],
    },
  };
  const at = new Date().toISOString();
  const scan = {
    id: '00000000-0000-4000-8000-000000000001',
    state: 'completed',
    queued_at: at,
    started_at: at,
    finished_at: at,
    progress: null,
    score: result.score,
    grade: result.grade,
    header_grade: result.headers.grade,
    counts: result.counts,
    error: null,
    report_id: null,
  };
  await page.route(/\/project\/[\w-]+\/scan$/, (route) =>
    route.request().resourceType() === 'fetch'
      ? route.fulfill({ contentType: 'application/json', body: JSON.stringify({ scan, result, new_fingerprints: [], fixed: [], previous_scan_id: null }) })
      : route.fallback(),
  );
  // The project names it as its latest scan (the page then loads it in full).
  await page.route(/\/project\/[\w-]+$/, async (route) => {
    if (route.request().resourceType() !== 'fetch' || route.request().method() !== 'GET') return route.fallback();
    const response = await route.fetch();
    await route.fulfill({ response, json: { ...((await response.json()) as object), latest_scan: scan } });
  });
  await reloadReady(page);
  const signIns = page.getByTestId('scan-sign-in');
  await expect(signIns).toHaveCount(2);
  await expect(signIns.nth(0)).toContainText('Signed in as alice@example.com with Supabase Auth');
  await expect(signIns.nth(1)).toContainText('Not signed inCould not sign in as bob@example.com: the sign-in answered 400: invalid login credentials');
  expect(await page.getByTestId('scan-coverage').innerText()).not.toContain('S3cret-');
  await page.getByTestId('scan-sign-ins').scrollIntoViewIfNeeded();
  await snapWidths(page, 'project-sign-ins');
});

/**
 * Makes the API call `method path` (a fetch, not the page load of the same path) answer `status` with `body`; with
 * `held`, only once it resolves (the test has seen the loading state).
 */
async function failApi(page: Page, method: string, path: RegExp, status: number, body: unknown = {}, held?: Promise<void>) {
  await page.route(path, async (route) => {
    const request = route.request();
    if (request.resourceType() !== 'fetch' || request.method() !== method) return route.fallback();
    await held;
    await route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) });
  });
}

test('projects: loading skeletons and every failure toast', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await signedIn(page);

  // Six skeleton cards while the list loads, then the load failure toast.
  await page.goto('/dashboard');
  const listHeld = gate();
  await failApi(page, 'GET', /\/projects$/, 500, { detail: 'boom' }, listHeld.opened);
  await page.reload();
  await expect(page.getByTestId('project-card-skeleton')).toHaveCount(6);
  listHeld.open();
  await expect(page.getByText('Failed to load projects')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText('Could not retrieve your projects. Please try again later.')).toBeVisible();
  await page.unroute(/\/projects$/);

  // Create failure: the server's detail.
  await reloadReady(page);
  await failApi(page, 'POST', /\/project$/, 400, { detail: 'Project limit reached' });
  await page.getByRole('button', { name: 'New Project', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Create New Project' });
  await dialog.getByLabel('Project Name').fill('Failing');
  await dialog.getByLabel('Website URL').fill('https://example.com');
  await dialog.getByRole('button', { name: 'Create Project', exact: true }).click();
  await expect(page.getByText('Error creating project')).toBeVisible();
  await expect(page.getByText('Project limit reached')).toBeVisible();
  await expect(dialog).toBeVisible();
  await page.unroute(/\/project$/);
  await dialog.getByRole('button', { name: 'Create Project', exact: true }).click();
  await expect(dialog).toBeHidden();
  await page.getByTestId('project-card').getByRole('link', { name: 'Failing' }).click();
  await expect(page.getByRole('heading', { name: 'Failing', level: 1 })).toBeVisible();

  // Run Test refused (a test already running), save and delete failures, activity failure.
  await failApi(page, 'PATCH', /\/project_test\//, 409, { detail: 'A test of this project is already running.' });
  await page.getByRole('button', { name: 'Run Test', exact: true }).click();
  await expect(page.getByText('Failed to run test')).toBeVisible();
  await expect(page.getByText('A test of this project is already running.')).toBeVisible();

  await failApi(page, 'PATCH', /\/project\/[\w-]+$/, 500);
  await page.getByRole('tab', { name: 'Settings' }).click();
  await page.getByRole('form', { name: 'Project Settings' }).getByLabel('Number of Pages').press('Enter');
  await expect(page.getByText('Failed to save changes')).toBeVisible();
  await expect(page.getByText('Could not update the project. Please try again later.')).toBeVisible();

  await failApi(page, 'GET', /\/events\/project\//, 500);
  await page.getByRole('tab', { name: 'Activity' }).click();
  await expect(page.getByText('Failed to load activity')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText('There was an error loading project events')).toBeVisible();

  await failApi(page, 'DELETE', /\/project\/[\w-]+$/, 500);
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page.getByText('Failed to delete project')).toBeVisible();
  await expect(page.getByText('Could not delete the project. Please try again later.')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/projects\/[\w-]+$/);

  // Loading state of the detail page, and a failure other than 404.
  const detailsHeld = gate();
  await failApi(page, 'GET', /\/project\/[\w-]+$/, 500, {}, detailsHeld.opened);
  await page.reload();
  await expect(page.getByText('Loading project details...')).toBeVisible();
  detailsHeld.open();
  await expect(page.getByText('Failed to load project')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText('Could not retrieve project details. Please try again later.')).toBeVisible();
});
