import { expect, test, type Page } from '@playwright/test';
import { newEmail, signIn, signUp, signedIn, snapBoth } from './support';

// This runs in the page; the tests' tsconfig has no DOM types.
type PageWindow = { localStorage: { getItem(key: string): string | null; setItem(key: string, value: string): void } };
/** The key the app gives supabase-js (AUTH_STORAGE_KEY in common/auth.ts). */
const SESSION_KEY = 'vibeeval-auth-token';

async function storedSession(page: Page): Promise<{ access_token: string; expires_at: number }> {
  const raw = await page.evaluate((key) => (globalThis as unknown as PageWindow).localStorage.getItem(key), SESSION_KEY);
  expect(raw, 'a signed-in session in localStorage').toBeTruthy();
  return JSON.parse(raw!) as { access_token: string; expires_at: number };
}

/**
 * The requests of the page's next document, in the order the browser made them: [method, path, resource type]. The
 * page signed in just before: its own reads are over first.
 */
async function recordRequests(page: Page): Promise<[string, string, string][]> {
  await page.waitForLoadState('networkidle');
  const seen: [string, string, string][] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'document') seen.length = 0;
    seen.push([request.method(), new URL(request.url()).pathname, request.resourceType()]);
  });
  return seen;
}

const projectListReads = (seen: [string, string, string][]) => seen.filter(([method, path, type]) => method === 'GET' && path === '/projects' && type !== 'document');

test('signed in, /dashboard/projects asks for the project list with the page, before the app runs, and once', async ({ page }) => {
  test.setTimeout(120_000);
  await signedIn(page);
  const { access_token } = await storedSession(page);
  const created = await page.request.post('/project', {
    headers: { authorization: `Bearer ${access_token}` },
    data: { url: 'https://dashboard-start.example.com/', instruction_text: 'Dashboard start', num_pages: 1 },
  });
  expect(created.ok()).toBe(true);

  const seen = await recordRequests(page);
  const entry = page.waitForResponse((response) => /\/assets\/index-[^/]+\.js$/.test(response.url()));
  await page.goto('/dashboard/projects');
  const entryPath = new URL((await entry).url()).pathname;
  // The first data of a fresh load (30 s: a busy machine takes more than the default 10 s to boot the app).
  await expect(page.getByTestId('project-card')).toHaveCount(1, { timeout: 30_000 });
  await expect(page.getByTestId('project-card')).toContainText('https://dashboard-start.example.com/');
  await page.waitForLoadState('networkidle');

  // The list is asked for by the page's start script, before the app's entry module is even requested; the app
  // takes that answer instead of asking again, and does not refresh a session that is still good.
  const reads = projectListReads(seen);
  expect(reads).toHaveLength(1);
  expect(seen.indexOf(reads[0]!)).toBeLessThan(seen.findIndex(([, path]) => path === entryPath));
  expect(seen.filter(([, path]) => path === '/auth/v1/token')).toEqual([]);
  await snapBoth(page, 'dashboard-start-projects');
});

test("signed in, a project's page asks for the project with the page, before the app runs, and once", async ({ page }) => {
  test.setTimeout(120_000);
  await signedIn(page);
  const { access_token } = await storedSession(page);
  const created = await page.request.post('/project', {
    headers: { authorization: `Bearer ${access_token}` },
    data: { url: 'https://project-start.example.com/', instruction_text: 'Project start', num_pages: 1 },
  });
  expect(created.ok()).toBe(true);
  const { id } = (await created.json()) as { id: string };

  // The page is the prerendered shell of every project's page: its start script asks for the app config (the
  // app's first read) and the project. The app's entry is held until both answers are in: they come without it.
  const seen = await recordRequests(page);
  const answered = (path: string) => page.waitForResponse((response) => new URL(response.url()).pathname === path, { timeout: 30_000 });
  const early = Promise.all([answered('/app-config'), answered(`/project/${id}`)]);
  await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
    await early.catch(() => undefined);
    await route.continue();
  });
  await page.goto(`/dashboard/projects/${id}`);
  await early;
  await expect(page.getByText('https://project-start.example.com/').first()).toBeVisible({ timeout: 30_000 });
  await page.waitForLoadState('networkidle');

  const reads = seen.filter(([method, path, type]) => method === 'GET' && path === `/project/${id}` && type !== 'document');
  expect(reads).toHaveLength(1);
  // The app took both answers instead of asking again, and did not refresh a session that is still good.
  expect(seen.filter(([method, path]) => method === 'GET' && path === '/app-config')).toHaveLength(1);
  expect(seen.filter(([, path]) => path === '/auth/v1/token')).toEqual([]);
  await snapBoth(page, 'dashboard-start-project');
});

/** In the page, before its scripts: what the document holds when the app says it runs (html[data-app-ready]). */
function watchAppReady() {
  const root = globalThis as unknown as {
    document: { querySelectorAll(selector: string): { length: number }; body: { textContent: string } | null };
    MutationObserver: new (callback: () => void) => { observe(target: object, options: object): void; disconnect(): void };
    __atAppReady?: { cards: number; loading: number; text: string };
  };
  const { document } = root;
  const observer = new root.MutationObserver(() => {
    if (root.__atAppReady || !document.querySelectorAll('html[data-app-ready]').length) return;
    observer.disconnect();
    root.__atAppReady = {
      cards: document.querySelectorAll('[data-testid="project-card"]').length,
      loading: document.querySelectorAll('[data-testid="project-grid"][aria-busy="true"]').length,
      text: document.body?.textContent ?? '',
    };
  });
  // The document may have no element yet when this runs.
  observer.observe(document, { attributes: true, attributeFilter: ['data-app-ready'], subtree: true });
}

test('signed in, /dashboard/projects is rendered once, with its data: the first page the app shows has the cards and the account', async ({ page }) => {
  test.setTimeout(120_000);
  const email = await signedIn(page);
  const { access_token } = await storedSession(page);
  const created = await page.request.post('/project', {
    headers: { authorization: `Bearer ${access_token}` },
    data: { url: 'https://rendered-once.example.com/', instruction_text: 'Rendered once', num_pages: 1 },
  });
  expect(created.ok()).toBe(true);
  await page.waitForLoadState('networkidle');

  // The app's entry is held until the start script's answer is in, as on a machine where the API is quicker than
  // the app's modules: the app then has the list before its first render.
  await page.addInitScript(watchAppReady);
  const answered = page.waitForResponse((response) => new URL(response.url()).pathname === '/projects', { timeout: 60_000 });
  await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
    await answered;
    await route.continue();
  });
  await page.goto('/dashboard/projects');
  await expect(page.locator('html[data-app-ready]')).toHaveCount(1, { timeout: 30_000 });
  const atReady = await page.evaluate(() => (globalThis as unknown as { __atAppReady?: { cards: number; loading: number; text: string } }).__atAppReady);
  expect(atReady, 'what the page held when the app started').toBeTruthy();
  expect(atReady!.cards).toBe(1);
  expect(atReady!.loading).toBe(0);
  expect(atReady!.text).toContain('https://rendered-once.example.com/');
  expect(atReady!.text).toContain(email);
  await expect(page.getByTestId('project-card')).toHaveCount(1);
  await snapBoth(page, 'dashboard-rendered-once');
});

test('a stored access token about to expire is refreshed first: the app then asks for the list itself, once', async ({ page }) => {
  test.setTimeout(120_000);
  await signedIn(page);
  const session = await storedSession(page);
  // Within supabase-js's 90 s margin: it refreshes before any call, so the start script must not use this token.
  const expiring = { ...session, expires_at: Math.floor(Date.now() / 1000) + 30 };
  await page.evaluate(([key, value]) => (globalThis as unknown as PageWindow).localStorage.setItem(key, value), [SESSION_KEY, JSON.stringify(expiring)] as const);

  const seen = await recordRequests(page);
  await page.goto('/dashboard/projects');
  await expect(page.getByTestId('create-project-tile')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('project-grid')).toHaveAttribute('aria-busy', 'false');
  await page.waitForLoadState('networkidle');
  const reads = projectListReads(seen);
  expect(reads).toHaveLength(1);
  const refresh = seen.findIndex(([method, path]) => method === 'POST' && path === '/auth/v1/token');
  expect(refresh).toBeGreaterThanOrEqual(0);
  expect(seen.indexOf(reads[0]!)).toBeGreaterThan(refresh);
});

test('hashed assets may be kept for good; pages are checked again on every visit', async ({ request }) => {
  const html = await (await request.get('/dashboard/projects')).text();
  const [, start, main] = /<script src="(\/assets\/start-after-paint-[0-9a-f]+\.js)" data-main="(\/assets\/index-[^"]+\.js)"/.exec(html) ?? [];
  for (const asset of [start!, main!]) {
    expect((await request.get(asset)).headers()['cache-control'], asset).toBe('public, max-age=31536000, immutable');
  }
  // The page names this build's assets: it is asked for again each time (max-age=0).
  expect((await request.get('/dashboard/projects')).headers()['cache-control']).toMatch(/no-cache|max-age=0\b/);
});

/** The project grid and the row under it (its 'Load more'), as HTML without the comments server rendering leaves. */
async function projectListHtml(page: Page): Promise<string> {
  const html = await page.evaluate<string>(`(() => {
    const grid = document.querySelector('[data-testid="project-grid"]');
    return grid.outerHTML + (grid.nextElementSibling?.outerHTML ?? '');
  })()`);
  return html.replace(/<!--.*?-->/g, '');
}

test('signed in, the project list is on screen from the early answer before the app runs, drawn as the app then draws it', async ({ page }) => {
  test.setTimeout(120_000);
  await signedIn(page);
  const { access_token } = await storedSession(page);
  const headers = { authorization: `Bearer ${access_token}` };
  // A card named by its instruction text, with a status of its own and a last test three days ago; a card named by
  // a URL with a port, a query and dashes (written with line-break points between its parts).
  const titled = await page.request.post('/project', {
    headers,
    data: { url: 'https://painted.example.com/shop?id=42', instruction_text: 'Painted <b>title</b> & co', num_pages: 1 },
  });
  expect(titled.ok()).toBe(true);
  const threeDaysAgo = new Date(Date.now() - 3 * 24 * 3600_000 - 60_000).toISOString();
  const patched = await page.request.patch(`/project/${((await titled.json()) as { id: string }).id}`, { headers, data: { status: 'paused', last_test: threeDaysAgo } });
  expect(patched.ok()).toBe(true);
  const byUrl = await page.request.post('/project', { headers, data: { url: 'https://painted-url.example.com:8443/a-b/c', instruction_text: '', num_pages: 3 } });
  expect(byUrl.ok()).toBe(true);
  await page.waitForLoadState('networkidle');

  // The app's entry is held until the test lets it go: what shows meanwhile is the start script's painting.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  await page.goto('/dashboard/projects');
  await expect(page.getByTestId('project-card')).toHaveCount(2, { timeout: 30_000 });
  await expect(page.locator('html[data-app-ready]')).toHaveCount(0);
  const cards = page.getByTestId('project-card');
  await expect(cards.nth(0)).toContainText('https://painted-url.example.com:8443/a-b/c');
  await expect(cards.nth(0)).toContainText('3 pages');
  await expect(cards.nth(1)).toContainText('Painted <b>title</b> & co');
  await expect(cards.nth(1)).toContainText('https://painted.example.com/shop?id=42');
  await expect(cards.nth(1)).toContainText('Last updated 3 days ago');
  await expect(cards.nth(1).getByTestId('status-badge')).toHaveText('paused');
  await expect(page.getByTestId('project-grid')).toHaveAttribute('aria-busy', 'false');
  const painted = await projectListHtml(page);
  await snapBoth(page, 'dashboard-start-painted');

  release();
  await expect(page.locator('html[data-app-ready]')).toHaveCount(1, { timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  expect(await projectListHtml(page)).toBe(painted);
  // A card painted before the app is the app's own link once it runs.
  await cards.nth(1).getByRole('link').click();
  await expect(page).toHaveURL(/\/dashboard\/projects\/[0-9a-f-]{36}$/);
  await expect(page.getByText('Painted <b>title</b> & co').first()).toBeVisible({ timeout: 30_000 });
});

test('signing in: the dashboard modules are loaded on the sign-in page, and the project list is asked for with the session, before the dashboard runs', async ({ page }) => {
  test.setTimeout(120_000);
  const email = newEmail();
  // The sign-in page (here reached from the sign-up page) loads the dashboard's page modules once it is idle, while
  // the visitor types.
  const warmed = page.waitForRequest(/\/assets\/projects-page-[^/]+\.js$/, { timeout: 60_000 });
  await signUp(page, email, 'secret123', 30_000);
  await warmed;
  await page.waitForLoadState('networkidle');

  const seen: string[] = [];
  page.on('request', (request) => seen.push(`${request.method()} ${new URL(request.url()).pathname}`));
  await signIn(page, email, 'secret123');
  await expect(page.getByTestId('create-project-tile')).toBeVisible({ timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  // No module was fetched after the click; the list was asked for once, right after the session came.
  expect(seen.filter((line) => line.startsWith('GET /assets/'))).toEqual([]);
  const token = seen.indexOf('POST /auth/v1/token');
  const list = seen.indexOf('GET /projects');
  expect(token).toBeGreaterThanOrEqual(0);
  expect(list).toBeGreaterThan(token);
  expect(seen.filter((line) => line === 'GET /projects')).toHaveLength(1);
  expect(seen.indexOf('GET /workspaces'), 'the list is asked for before the dashboard shell asks for the workspaces').toBeGreaterThan(list);
});

test("signed in, a project's page shows the project's top from the early answer before the app runs, as the app then draws it", async ({ page }) => {
  test.setTimeout(120_000);
  await signedIn(page);
  const { access_token } = await storedSession(page);
  const headers = { authorization: `Bearer ${access_token}` };
  const created = await page.request.post('/project', { headers, data: { url: 'https://painted-top.example.com/app', instruction_text: 'Painted <i>top</i>', num_pages: 2 } });
  expect(created.ok()).toBe(true);
  const { id } = (await created.json()) as { id: string };
  expect((await page.request.patch(`/project/${id}`, { headers, data: { status: 'archived' } })).ok()).toBe(true);
  await page.waitForLoadState('networkidle');

  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  await page.goto(`/dashboard/projects/${id}`);
  const heading = page.getByRole('heading', { level: 1 });
  await expect(heading).toHaveText('Painted <i>top</i>', { timeout: 30_000 });
  await expect(page.locator('html[data-app-ready]')).toHaveCount(0);
  await expect(page.getByText('https://painted-top.example.com/app')).toBeVisible();
  await expect(page.getByTestId('status-badge')).toHaveText('archived');
  await expect(page.getByRole('button', { name: 'Run Test' })).toBeVisible();
  await expect(page).toHaveTitle('Painted <i>top</i> | vibeeval');
  // The top: the heading's row (h1 < its stack < the row with the back button < the top's flex).
  const top = () => page.evaluate<string>(`document.querySelector('h1').parentElement.parentElement.parentElement.outerHTML.replace(/<!--.*?-->/g, '')`);
  const painted = await top();
  await snapBoth(page, 'dashboard-start-project-painted');
  // 'Edit' pressed before the app runs: held, then done once the app runs (the Settings tab opens).
  await page.getByRole('button', { name: 'Edit' }).click();

  release();
  await expect(page.locator('html[data-app-ready]')).toHaveCount(1, { timeout: 30_000 });
  await expect(page.getByRole('tab', { name: 'Settings' })).toHaveAttribute('aria-selected', 'true', { timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  expect(await top()).toBe(painted);
});
