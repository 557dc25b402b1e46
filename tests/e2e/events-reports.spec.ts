import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { gate, newEmail, reloadReady, signIn, signUp, snapWidths, startTestSite, type TestPage } from './support';

// A tiny site on 127.0.0.1 for the real scans: two pages, a JSON endpoint and an exposed .env, so the scan
// records page views and API calls and its security report has findings. Unknown paths answer a JSON 404,
// so the scanner's probes are recorded as API calls (HTML GETs are page views).
const PAGES: Record<string, TestPage> = {
  '/': {
    type: 'text/html; charset=utf-8',
    body: '<!doctype html><html><head><title>Events shop</title></head><body><h1>Events shop</h1><a href="/about">About</a><a href="/api/status">Status</a></body></html>',
  },
  // Held while the test looks at a report being generated: a scan of this tiny site can end before the dialog shows it.
  '/about': {
    type: 'text/html; charset=utf-8',
    body: '<!doctype html><html><head><title>About</title></head><body><p>About us</p><a href="/">Home</a></body></html>',
    held: () => aboutHeld.opened,
  },
  '/api/status': { type: 'application/json', body: '{"ok":true}' },
  '/.env': { type: 'text/plain', body: 'APP_ENV=production\nDB_PASSWORD=correct-horse-battery-staple\n' },
};

let aboutHeld = gate();
aboutHeld.open();
let site: Awaited<ReturnType<typeof startTestSite>>;
let siteUrl = '';

test.beforeAll(async () => {
  site = await startTestSite(PAGES, { type: 'application/json', body: '{"error":"not found"}' });
  siteUrl = site.url;
});

test.afterEach(() => aboutHeld.open());

test.afterAll(async () => {
  await site.close();
});

/** Full-page screenshots at desktop and phone widths. */
/** The signed-in session's bearer token (web mode keeps the supabase-js session in localStorage). */
async function accessToken(page: Page): Promise<string> {
  const token = await page.evaluate(() => {
    // This runs in the page; the tests' tsconfig has no DOM types.
    const storage = (globalThis as unknown as { localStorage: { getItem(key: string): string | null } }).localStorage;
    // The key the app gives supabase-js (AUTH_STORAGE_KEY in renderer/src/app/auth-client.ts).
    const raw = storage.getItem('vibeeval-auth-token');
    return raw ? (JSON.parse(raw) as { access_token?: string }).access_token : undefined;
  });
  expect(token, 'a signed-in session in localStorage').toBeTruthy();
  return token!;
}

/** A small typed client for the product API with the session's bearer token. */
function api(request: APIRequestContext, token: string) {
  const headers = { authorization: `Bearer ${token}` };
  return {
    async createProject(name: string): Promise<string> {
      const response = await request.post('/project', {
        headers,
        data: { url: siteUrl, status: 'active', instruction_text: name, secret_instruction: null, num_pages: 3 },
      });
      expect(response.ok(), await response.text()).toBe(true);
      return ((await response.json()) as { id: string }).id;
    },
    async runTest(id: string) {
      const response = await request.patch(`/project_test/${id}`, { headers });
      expect(response.ok(), await response.text()).toBe(true);
    },
    async scanState(id: string): Promise<string | undefined> {
      const response = await request.get(`/project/${id}`, { headers });
      return ((await response.json()) as { latest_scan: { state: string } | null }).latest_scan?.state;
    },
  };
}

/** Notes each of `kinds` the moment an event row showing it is drawn on the page (until the page is left). */
async function watchRowKinds(page: Page, kinds: string[]): Promise<void> {
  // A string, as every page-side script of the suite: its code runs in the page, whose types this project lacks.
  await page.evaluate(`(() => {
    const wanted = ${JSON.stringify(kinds)};
    const seen = new Set();
    const look = () => {
      for (const row of document.querySelectorAll('[data-testid="event-row"]')) {
        for (const kind of wanted) if (row.textContent.includes(kind)) seen.add(kind);
      }
    };
    new MutationObserver(look).observe(document.body, { childList: true, subtree: true, characterData: true });
    look();
    window.seenRowKinds = seen;
  })()`);
}

function seenRowKinds(page: Page): Promise<string[]> {
  return page.evaluate<string[]>('[...window.seenRowKinds]');
}

test('events: live rows from a real scan, search, clear, error view; reports: recent, generate, saved', async ({ page, context }) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  const email = newEmail();
  await signUp(page, email, 'secret123');
  await signIn(page, email, 'secret123');
  await expect(page).toHaveURL(/\/dashboard\/projects$/);
  const client = api(page.request, await accessToken(page));

  // Events, empty, then filled by the live stream as things happen: no Refresh.
  await page.getByRole('link', { name: 'Events' }).first().click();
  await expect(page).toHaveURL(/\/dashboard\/events$/);
  await expect(page.getByRole('heading', { name: 'Events', level: 1 })).toBeVisible();
  await expect(page.getByText('No events found')).toBeVisible();
  await snapWidths(page, 'events-empty');

  const scanned = await client.createProject('Events shop');
  const rows = page.getByTestId('event-row');
  await expect(rows.filter({ hasText: 'Project created' })).toBeVisible({ timeout: 15_000 });
  // The crawl's pages and the probes' API calls arrive live, all while the page stays as it is. Each arriving row is
  // noted as it is drawn: rows arrive a batch a second, and a batch can hold more API calls than the list's 30, so
  // the list's next refresh may already have moved the page views below the first 30 by the time a poll looks.
  // The scanner's own requests are listed on asking only: this part of the test watches every source.
  const source = page.getByRole('combobox', { name: 'Source' });
  await expect(source).toHaveValue('');
  await source.selectOption({ label: 'All sources' });
  await watchRowKinds(page, ['Page View', 'API Call']);
  await client.runTest(scanned);
  await expect.poll(() => seenRowKinds(page), { timeout: 60_000 }).toContain('Page View');
  await expect.poll(() => seenRowKinds(page), { timeout: 120_000 }).toContain('API Call');
  await expect.poll(() => client.scanState(scanned), { timeout: 180_000, intervals: [1_000] }).toBe('completed');
  await expect(rows.filter({ hasText: 'Scan completed' })).toBeVisible({ timeout: 15_000 });
  const table = page.getByRole('table', { name: 'Recent events' });
  for (const header of ['Event Type', 'Description', 'URL', 'Time']) {
    await expect(table.getByRole('columnheader', { name: header })).toBeVisible();
  }
  // Times read 'MMM d, h:mm a'.
  await expect(rows.first().locator('time')).toHaveText(/^[A-Z][a-z]{2} \d{1,2}, \d{1,2}:\d{2} (AM|PM)$/);
  await expect(rows).toHaveCount(30);
  await snapWidths(page, 'events-rows');

  // Search over name, URL and description, case-insensitive; Clear Search brings everything back.
  const search = page.getByRole('searchbox', { name: 'Search events' });
  await search.fill('ENV');
  await expect(rows.first()).toBeVisible();
  const filtered = await rows.count();
  expect(filtered).toBeGreaterThan(0);
  expect(filtered).toBeLessThan(30);
  for (const text of await rows.allInnerTexts()) expect(text.toLowerCase()).toContain('env');
  await snapWidths(page, 'events-filtered');
  await search.fill('api call');
  await expect(rows.filter({ hasNotText: 'API Call' })).toHaveCount(0);
  await search.fill('no-such-event-anywhere');
  await expect(page.getByText('No matching events')).toBeVisible();
  await page.getByRole('button', { name: 'Clear Search' }).click();
  await expect(search).toHaveValue('');
  await expect(rows).toHaveCount(30);
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(rows).toHaveCount(30);

  // Filters: by default the site's own events, none of the scanner's page views; the scanner's on asking.
  await source.selectOption({ label: 'Site and scenarios' });
  await expect(rows.filter({ hasText: 'Scan completed' })).toBeVisible();
  await expect(rows.filter({ hasText: 'Page View' })).toHaveCount(0);
  await snapWidths(page, 'events-default-source');
  await source.selectOption({ label: 'Scanner requests' });
  await page.getByRole('combobox', { name: 'Event type' }).selectOption({ label: 'Page View' });
  await expect(rows.first()).toBeVisible();
  await expect(rows.filter({ hasNotText: 'Page View' })).toHaveCount(0);
  await page.getByRole('combobox', { name: 'Project' }).selectOption({ label: 'Events shop' });
  await expect(rows.first()).toBeVisible();
  await snapWidths(page, 'events-filters');
  await page.getByRole('textbox', { name: 'From' }).fill('2999-01-01');
  await expect(page.getByText('No event matches these filters')).toBeVisible();
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(source).toHaveValue('');
  await expect(rows.filter({ hasText: 'Scan completed' })).toBeVisible();
  await expect(rows.filter({ hasText: 'Page View' })).toHaveCount(0);

  // The error view: 'Failed to load events' with Try Again, which reloads the page.
  // The view shows once the list has failed three times (the query client asks twice more, 1 s then 2 s apart), after
  // the app has started again. While a route is set Playwright turns the browser's cache off and holds every request
  // for the route check, so this reload fetches the whole app again: on a loaded machine its start alone took 13 s.
  // That start is waited for on its own, as every reload in the suite is; the view's wait covers the list's requests.
  await page.route('**/events/recent?*', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{}' }));
  await reloadReady(page);
  await expect(page.getByText('Failed to load events')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('button', { name: 'Try Again' })).toBeVisible();
  await snapWidths(page, 'events-error');
  await page.unroute('**/events/recent?*');
  await page.getByRole('button', { name: 'Try Again' }).click();
  await expect(rows.first()).toBeVisible({ timeout: 15_000 });

  // Reports: the scan's security report is the recent one; a click opens the preview in a new tab.
  await page.getByRole('link', { name: 'Reports' }).first().click();
  await expect(page).toHaveURL(/\/dashboard\/reports$/);
  await expect(page.getByRole('tab', { name: 'Recent Reports' })).toHaveAttribute('aria-selected', 'true');
  const recent = page.getByTestId('recent-report');
  await expect(recent).toHaveCount(1);
  await expect(recent).toContainText(siteUrl);
  await expect(recent).toContainText('Security');
  await expect(recent).toContainText(/\d+ issues?|No issues/);
  await expect(recent).toContainText(/just now|minutes? ago/);
  await snapWidths(page, 'reports-recent');
  const [preview] = await Promise.all([context.waitForEvent('page'), recent.click()]);
  await preview.waitForLoadState();
  expect(new URL(preview.url()).pathname).toBe('/report-preview');
  expect(new URL(preview.url()).searchParams.get('signed_url')).toMatch(/\/reports\/[^/]+\/view\?exp=\d+&sig=/);
  await preview.close();

  // A report link (vibeeval://report/<id> in the desktop app) lands on ?open=<id>: the preview opens (in this tab
  // on the web: nobody clicked, so a new window would be blocked); an unknown report says so.
  const reportId = /\/reports\/([^/]+)\/view/.exec(new URL(preview.url()).searchParams.get('signed_url') ?? '')?.[1];
  expect(reportId).toBeTruthy();
  await page.goto(`/dashboard/reports?open=${reportId}`);
  await expect(page).toHaveURL(/\/report-preview\?signed_url=/, { timeout: 15_000 });
  expect(new URL(page.url()).searchParams.get('signed_url')).toContain(`/reports/${reportId}/view`);
  await page.goto('/dashboard/reports?open=00000000-0000-4000-8000-000000000000');
  await expect(page.getByText('The report was not found.')).toBeVisible({ timeout: 15_000 });
  await expect(page).toHaveURL(/\/dashboard\/reports$/);
  await page.getByRole('tab', { name: 'Recent Reports' }).click();

  // Available Reports: four types; Generate Report for security on a project never scanned shows progress, then the report.
  const fresh = await client.createProject('Fresh shop');
  await page.getByRole('tab', { name: 'Available Reports' }).click();
  for (const type of ['security', 'performance', 'accessibility', 'analytics']) {
    await expect(page.getByTestId(`report-type-${type}`)).toBeVisible();
  }
  await expect(page.getByRole('button', { name: /^Generate Report/ })).toHaveCount(4);
  await snapWidths(page, 'reports-available');

  await page
    .getByTestId('report-type-security')
    .getByRole('button', { name: /^Generate Report/ })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Generate Security Report' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Project').selectOption(fresh);
  aboutHeld = gate();
  await dialog.getByRole('button', { name: 'Generate', exact: true }).click();
  await expect(dialog.getByTestId('report-progress')).toBeVisible();
  await expect(dialog.getByRole('progressbar')).toBeVisible();
  await snapWidths(page, 'reports-generator-progress');
  aboutHeld.open();
  const frame = dialog.locator('iframe');
  await expect(frame).toBeVisible({ timeout: 180_000 });
  await expect(frame).toHaveAttribute('src', /\/reports\/[^/]+\/view\?exp=\d+&sig=/);
  await expect(page.frameLocator('[data-testid="report-generator"] iframe').locator('body')).toContainText(siteUrl.replace(/\/$/, ''));
  await expect(dialog.getByRole('button', { name: 'Open Preview' })).toBeVisible();
  for (const format of ['HTML', 'PDF', 'CSV', 'JSON', 'SARIF']) {
    await expect(dialog.getByRole('link', { name: `Download ${format}` })).toHaveAttribute('href', new RegExp(`/export/${format.toLowerCase()}\\?`));
  }
  await snapWidths(page, 'reports-generator-report');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();

  // The new report joins Recent Reports.
  await page.getByRole('tab', { name: 'Recent Reports' }).click();
  await expect(recent).toHaveCount(2);

  await page.getByRole('tab', { name: 'Saved Reports' }).click();
  await expect(page.getByText('No saved reports found.')).toBeVisible();
  await snapWidths(page, 'reports-saved');
});
