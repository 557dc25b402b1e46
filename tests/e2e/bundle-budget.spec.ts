import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { signedIn } from './support';

/** The landing page's first load may transfer at most this much JavaScript, gzip-compressed. */
const LANDING_JS_BUDGET = 250 * 1024;
/** The dashboard's first route (/dashboard/projects, signed in) may transfer at most this much JavaScript, gzip. */
const DASHBOARD_JS_BUDGET = 300 * 1024;

// The budgets are in gzip, the encoding every browser accepts: a browser offered brotli gets less (the figure is
// logged beside), and a budget held in brotli would let the gzip figure grow past it unseen.
test.use({ extraHTTPHeaders: { 'Accept-Encoding': 'gzip' } });

interface Script {
  url: string;
  /** Bytes on the wire (the compressed body) and once decompressed. */
  bytes: number;
  raw: number;
  encoding: string;
}

/**
 * Records the content encoding each script of `page` comes with. Call before loading the page; the answer's
 * `scripts()` reads every script loaded so far from the browser's own resource timing (encodedBodySize is the
 * compressed body).
 */
function watchScripts(page: Page) {
  const encodings = new Map<string, string>();
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') encodings.set(response.url(), response.headers()['content-encoding'] ?? 'identity');
  });
  return {
    async scripts(): Promise<Script[]> {
      // A string: this file is type-checked without the DOM library.
      const timings = await page.evaluate<{ url: string; bytes: number; raw: number }[]>(`performance
        .getEntriesByType('resource')
        .filter((entry) => entry.initiatorType === 'script' || entry.name.endsWith('.js'))
        .map((entry) => ({ url: entry.name, bytes: entry.encodedBodySize, raw: entry.decodedBodySize }))`);
      return timings.map((entry) => ({ ...entry, encoding: encodings.get(entry.url) ?? 'unseen' }));
    },
  };
}

/** The brotli size of each script, as the server sends it to a browser that accepts brotli (logged, not held). */
async function brotliBytes(page: Page, scripts: Script[]): Promise<number> {
  const lengths = await Promise.all(
    scripts.map(async (script) => {
      const response = await page.request.get(script.url, { headers: { 'Accept-Encoding': 'br' } });
      return response.headers()['content-encoding'] === 'br' ? Number(response.headers()['content-length']) : script.raw;
    }),
  );
  return lengths.reduce((sum, bytes) => sum + bytes, 0);
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** Logs what `scripts` weigh and checks they came gzip-compressed (scripts of 1 KB or more: the build writes .gz for those). */
async function report(page: Page, what: string, scripts: Script[]): Promise<number> {
  const total = scripts.reduce((sum, entry) => sum + entry.bytes, 0);
  const raw = scripts.reduce((sum, entry) => sum + entry.raw, 0);
  const largest = [...scripts]
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, 6)
    .map((entry) => `${new URL(entry.url).pathname} ${kb(entry.bytes)}`);
  console.log(
    `${what}: ${scripts.length} scripts, ${kb(total)} gzip, ${kb(await brotliBytes(page, scripts))} brotli, ${kb(raw)} uncompressed; largest (gzip): ${largest.join(', ')}`,
  );
  expect(scripts.length).toBeGreaterThan(0);
  for (const entry of scripts.filter((e) => e.raw >= 1024)) expect(entry.encoding, entry.url).toBe('gzip');
  return total;
}

test('the landing page first load stays within its JavaScript budget, gzip, without the sign-in client', async ({ page }) => {
  const watched = watchScripts(page);
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.waitForLoadState('networkidle');
  const scripts = await watched.scripts();
  expect(await report(page, 'landing first load', scripts)).toBeLessThanOrEqual(LANDING_JS_BUDGET);
  // supabase-js (auth-js, realtime) is loaded only by the sign-in pages and the dashboard.
  const bodies = await Promise.all(scripts.map((entry) => page.request.get(entry.url).then((r) => r.text())));
  expect(bodies.some((body) => body.includes('GoTrueClient'))).toBe(false);
});

test('sign-in pages load the sign-in client on demand', async ({ page }) => {
  const loaded: string[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') loaded.push(response.url());
  });
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.getByRole('link', { name: 'Login' }).click();
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  const bodies = await Promise.all(loaded.map((url) => page.request.get(url).then((r) => r.text())));
  expect(bodies.some((body) => body.includes('GoTrueClient'))).toBe(true);
});

test("the dashboard's first route stays within its JavaScript budget, gzip", async ({ page }) => {
  test.setTimeout(120_000);
  await signedIn(page);
  // A fresh load of the page as a returning user opens it: the stored session, nothing in the cache.
  let context: BrowserContext | undefined;
  try {
    context = await page
      .context()
      .browser()!
      .newContext({
        storageState: await page.context().storageState(),
        extraHTTPHeaders: { 'Accept-Encoding': 'gzip' },
      });
    const dashboard = await context.newPage();
    const watched = watchScripts(dashboard);
    await dashboard.goto('/dashboard/projects');
    await expect(dashboard.getByTestId('create-project-tile')).toBeVisible({ timeout: 30_000 });
    await dashboard.waitForLoadState('networkidle');
    expect(await report(dashboard, 'dashboard first load', await watched.scripts())).toBeLessThanOrEqual(DASHBOARD_JS_BUDGET);
  } finally {
    await context?.close();
  }
});
