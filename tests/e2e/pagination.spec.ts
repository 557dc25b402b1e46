import { expect as baseExpect, test, type APIRequestContext, type Page } from '@playwright/test';
import { newEmail, signIn, snapWidths, openReady, reloadReady } from './support';

// Lists come a page at a time (X-Next-Cursor); the screens still reach everything through 'Load more'.

// Pages of 50 cards render slowly on a shared two-core machine: wait longer than the default 5 s.
const expect = baseExpect.configure({ timeout: 30_000 });
test.setTimeout(240_000);

/** A new account (made through the API: the sign-up screen has its own tests), signed in on the page. */
async function signedIn(page: Page, request: APIRequestContext) {
  const email = newEmail();
  const signup = await request.post('/auth/v1/signup', { headers: { apikey: 'local' }, data: { email, password: 'secret123' } });
  expect(signup.ok(), await signup.text()).toBe(true);
  await openReady(page, '/login');
  await signIn(page, email, 'secret123');
  await expect(page).toHaveURL(/\/dashboard\/projects$/);
}

async function accessToken(page: Page): Promise<string> {
  const token = await page.evaluate(() => {
    const storage = (globalThis as unknown as { localStorage: { getItem(key: string): string | null } }).localStorage;
    const raw = storage.getItem('vibeeval-auth-token');
    return raw ? (JSON.parse(raw) as { access_token?: string }).access_token : undefined;
  });
  expect(token, 'a signed-in session in localStorage').toBeTruthy();
  return token!;
}

test('projects and events beyond the first page load on demand, at 1280 and 375 px', async ({ page, request }) => {
  await signedIn(page, request);
  const headers = { authorization: `Bearer ${await accessToken(page)}` };
  // 55 projects: more than the first page (50), fewer than the creation limit (60 a minute).
  for (let i = 1; i <= 55; i++) {
    const response = await request.post('/project', { headers, data: { url: `https://site${i}.example.test/`, instruction_text: `Site ${i}`, num_pages: 1 } });
    expect(response.status(), await response.text()).toBe(201);
  }
  const first = await request.get('/projects', { headers });
  expect(((await first.json()) as unknown[]).length).toBe(50);
  expect(first.headers()['x-next-cursor']).toBeTruthy();

  await reloadReady(page);
  await expect(page.getByTestId('project-card')).toHaveCount(50);
  const more = page.getByTestId('load-more-projects');
  await expect(more).toBeVisible();
  await snapWidths(page, 'projects-first-page');
  await more.click();
  await expect(page.getByTestId('project-card')).toHaveCount(55);
  await expect(more).toHaveCount(0);
  // The oldest project is on the second page.
  await expect(page.getByTestId('project-card').last()).toContainText('site1.example.test');
  await snapWidths(page, 'projects-all-pages');

  await openReady(page, '/dashboard/events');
  await expect(page.getByText('30 recent events')).toBeVisible();
  await page.getByTestId('load-more-events').click();
  await expect(page.getByText('55 recent events')).toBeVisible();
  await expect(page.getByTestId('load-more-events')).toHaveCount(0);
  await snapWidths(page, 'events-all-pages');
});

test('recent reports load their next page from the cursor header', async ({ page, request }) => {
  await signedIn(page, request);
  const report = (n: number) => ({
    id: `00000000-0000-4000-8000-00000000000${n}`,
    url: `https://shop${n}.example.test/`,
    created_at: new Date(Date.UTC(2026, 10, 20 - n)).toISOString(),
    total_issues: n,
    report_url: `/reports/00000000-0000-4000-8000-00000000000${n}/view?exp=1&sig=x`,
    type: 'security',
    project_id: null,
  });
  await page.route(/\/report_links\/recent/, async (route) => {
    const second = new URL(route.request().url()).searchParams.get('cursor') === 'page2';
    await route.fulfill({
      status: 200,
      contentType: 'application/json',
      headers: second ? {} : { 'x-next-cursor': 'page2' },
      body: JSON.stringify(second ? [report(3)] : [report(1), report(2)]),
    });
  });
  await openReady(page, '/dashboard/reports');
  await expect(page.getByTestId('recent-report')).toHaveCount(2);
  await page.getByTestId('load-more-reports').click();
  await expect(page.getByTestId('recent-report')).toHaveCount(3);
  await expect(page.getByTestId('recent-report').last()).toContainText('shop3.example.test');
  await expect(page.getByTestId('load-more-reports')).toHaveCount(0);
  await snapWidths(page, 'reports-all-pages');
});
