import { expect, test, type Page, type Request } from '@playwright/test';
import { appRunning, newEmail, openReady, signIn, snapWidths, withCookieChoice } from './support';

// A prerendered page is on screen before the app runs. What the visitor does then must not be lost: these tests
// hold every script of the app back (the page's own small classic scripts excepted: before-app, which keeps the
// input, and start-after-paint, which starts the app and on a dashboard page runs before the page is parsed) until
// the click or key press is made, so the input surely comes first, then let the app start and check the input took
// effect exactly once.

/** Holds the app's scripts until `release()` is called: the page stays as prerendered, with nothing of the app running. */
async function holdApp(page: Page): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/(?!before-app-|start-after-paint-)[^/?]+\.js(\?.*)?$/, async (route) => {
    await held;
    await route.continue().catch(() => undefined); // the page may be gone when the test ended early
  });
  return release;
}

/** The requests of `page` that `match`, from now on. */
function requestsMatching(page: Page, match: (request: Request) => boolean): Request[] {
  const seen: Request[] = [];
  page.on('request', (request) => {
    if (match(request)) seen.push(request);
  });
  return seen;
}

async function appNotRunning(page: Page) {
  await expect(page.locator('html[data-app-ready]')).toHaveCount(0);
}

test('login: Sign In pressed before the app runs signs in once, with the address and password typed then', async ({ page, request }) => {
  const email = newEmail();
  expect((await request.post('/auth/v1/signup', { headers: { apikey: 'local' }, data: { email, password: 'early-input-1' } })).ok()).toBe(true);
  await withCookieChoice(page);
  const signIns = requestsMatching(page, (r) => r.method() === 'POST' && r.url().includes('/auth/v1/token'));
  const release = await holdApp(page);
  await page.goto('/login', { waitUntil: 'commit' });
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('early-input-1');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await appNotRunning(page);
  // The click is taken: the button says so until the app acts on it.
  await expect(page.getByRole('button', { name: 'Sign In' })).toHaveAttribute('aria-busy', 'true');
  await snapWidths(page, 'early-input-login-pending');
  release();
  await expect(page).toHaveURL(/\/dashboard\/projects$/, { timeout: 30_000 });
  await expect(page.getByTestId('user-email')).toHaveText(email);
  expect(signIns).toHaveLength(1);
  expect(signIns[0]!.postDataJSON()).toMatchObject({ email, password: 'early-input-1' });
});

test("login: 'Continue with Google' clicked before the app runs starts once", async ({ page }) => {
  await withCookieChoice(page);
  const settings = requestsMatching(page, (r) => r.url().includes('/auth/v1/settings'));
  const release = await holdApp(page);
  await page.goto('/login', { waitUntil: 'commit' });
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await appNotRunning(page);
  release();
  // The shared server has no Google client: starting says so, once.
  await expect(page.getByText('Sign-in with Google is not configured on this server.')).toHaveCount(1, { timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  await expect(page.getByText('Sign-in with Google is not configured on this server.')).toHaveCount(1);
  expect(settings).toHaveLength(1);
});

test('signup: Enter pressed in the last field before the app runs signs up once, with what was typed', async ({ page }) => {
  const email = newEmail();
  await withCookieChoice(page);
  const signUps = requestsMatching(page, (r) => r.method() === 'POST' && r.url().includes('/auth/v1/signup'));
  const release = await holdApp(page);
  await page.goto('/signup', { waitUntil: 'commit' });
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('early-input-2');
  await page.getByLabel('Confirm Password').fill('early-input-2');
  await page.getByLabel('Confirm Password').press('Enter');
  await appNotRunning(page);
  release();
  await appRunning(page);
  await expect(page).toHaveURL(/\/login$/, { timeout: 30_000 });
  await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible();
  expect(signUps).toHaveLength(1);
  expect(signUps[0]!.postDataJSON()).toMatchObject({ email, password: 'early-input-2' });
});

test('landing: a URL typed and sent before the app runs is tested once; a demo example clicked then opens its dialog', async ({ page }) => {
  await withCookieChoice(page);
  let release = await holdApp(page);
  await page.goto('/', { waitUntil: 'commit' });
  // By its name: the dialog opened at the end hides the rest of the page from the accessibility tree.
  const field = page.locator('input[name="url"]');
  await field.fill('https://my-app.lovable.app');
  await field.press('Enter');
  await appNotRunning(page);
  release();
  await expect(page.getByRole('dialog', { name: 'Thank You' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('dialog')).toHaveCount(1);
  await expect(field).toHaveValue('https://my-app.lovable.app');

  await page.unrouteAll({ behavior: 'wait' });
  release = await holdApp(page);
  await page.goto('/', { waitUntil: 'commit' });
  await page.getByRole('button', { name: 'E-commerce store' }).click();
  await appNotRunning(page);
  release();
  await expect(page.getByRole('dialog', { name: 'Thank You' })).toBeVisible({ timeout: 30_000 });
  await expect(field).toHaveValue('https://shop-demo.lovable.app/');
});

test('the cookie banner appears before the app runs, and a choice made then is stored once the app runs', async ({ page }) => {
  const release = await holdApp(page);
  await page.goto('/', { waitUntil: 'commit' });
  const banner = page.getByTestId('cookie-banner');
  await expect(banner).toBeVisible();
  await expect(banner.getByRole('heading', { name: 'We use cookies' })).toBeVisible();
  await appNotRunning(page);
  await snapWidths(page, 'early-input-cookie-banner');
  await banner.getByRole('button', { name: 'Accept all' }).click();
  await appNotRunning(page);
  release();
  await expect(banner).toHaveCount(0, { timeout: 30_000 });
  expect(await page.evaluate<string | null>(`window.localStorage.getItem('cookie-consent')`)).toBe(JSON.stringify({ necessary: true, analytics: true, marketing: true }));
});

test('a tab clicked before the app runs is the tab shown once it runs', async ({ page }) => {
  await withCookieChoice(page);
  const release = await holdApp(page);
  await page.goto('/updates', { waitUntil: 'commit' });
  await page.getByRole('tab', { name: 'Release Notes' }).click();
  await appNotRunning(page);
  release();
  await appRunning(page);
  await expect(page).toHaveURL(/\/updates\?tab=release-notes$/);
  await expect(page.getByRole('tab', { name: 'Release Notes' })).toHaveAttribute('aria-selected', 'true');
});

test("dashboard shell: 'New Project' clicked before the app runs opens its dialog once", async ({ page }) => {
  await withCookieChoice(page);
  const email = newEmail();
  const signup = await page.request.post('/auth/v1/signup', { headers: { apikey: 'local' }, data: { email, password: 'early-input-3' } });
  expect(signup.ok()).toBe(true);
  await openReady(page, '/login');
  await signIn(page, email, 'early-input-3');
  await expect(page).toHaveURL(/\/dashboard\/projects$/, { timeout: 30_000 });

  const release = await holdApp(page);
  await page.goto('/dashboard/projects', { waitUntil: 'commit' });
  await page.getByRole('button', { name: 'New Project', exact: true }).click();
  await appNotRunning(page);
  await expect(page.getByRole('button', { name: 'New Project', exact: true })).toHaveAttribute('aria-busy', 'true');
  await snapWidths(page, 'early-input-dashboard-pending');
  release();
  await expect(page.getByRole('dialog', { name: 'Create New Project' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('dialog')).toHaveCount(1);
  await expect(page.getByTestId('user-email')).toHaveText(email);
});
