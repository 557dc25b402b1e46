import { expect, test } from '@playwright/test';
import { signedIn } from './support';

/** The landing page's first load may transfer at most this much JavaScript (compressed, as sent). */
const LANDING_JS_BUDGET = 250 * 1024;

test('the landing page first load stays within its JavaScript budget, compressed, without the sign-in client', async ({ page }) => {
  const scripts: { url: string; encoding: string }[] = [];
  // Seen on the wire: the content encoding each script came with.
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') scripts.push({ url: response.url(), encoding: response.headers()['content-encoding'] ?? 'identity' });
  });
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.waitForLoadState('networkidle');

  // Bytes on the wire per script, from the browser's own resource timing (encodedBodySize = compressed body).
  // A string: this file is type-checked without the DOM library.
  const sizes = await page.evaluate<{ url: string; bytes: number; raw: number }[]>(`performance
    .getEntriesByType('resource')
    .filter((entry) => entry.initiatorType === 'script' || entry.name.endsWith('.js'))
    .map((entry) => ({ url: entry.name, bytes: entry.encodedBodySize, raw: entry.decodedBodySize }))`);
  const total = sizes.reduce((sum, entry) => sum + entry.bytes, 0);
  const raw = sizes.reduce((sum, entry) => sum + entry.raw, 0);
  console.log(`landing first load: ${sizes.length} scripts, ${(total / 1024).toFixed(1)} KB transferred (${(raw / 1024).toFixed(1)} KB uncompressed)`);

  expect(scripts.length).toBeGreaterThan(0);
  // Scripts of 1 KB or more are sent compressed (the build writes .br and .gz for those).
  for (const entry of sizes.filter((e) => e.raw >= 1024)) {
    expect(scripts.find((s) => s.url === entry.url)?.encoding, entry.url).toMatch(/^(br|gzip)$/);
  }
  expect(total).toBeLessThanOrEqual(LANDING_JS_BUDGET);
  // supabase-js (auth-js, realtime) is loaded only by the sign-in pages and the dashboard.
  const bodies = await Promise.all(sizes.map((entry) => page.request.get(entry.url).then((r) => r.text())));
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

/** The dashboard's first route (/dashboard/projects, signed in) may transfer at most this much JavaScript, compressed. */
const DASHBOARD_JS_BUDGET = 300 * 1024;

test("the dashboard's first route stays within its JavaScript budget, compressed", async ({ page }) => {
  test.setTimeout(120_000);
  await signedIn(page);
  // A fresh load of the page as a returning user opens it: the stored session, nothing in the cache.
  const context = await page.context().browser()!.newContext({ storageState: await page.context().storageState() });
  const dashboard = await context.newPage();
  await dashboard.goto('/dashboard/projects');
  await expect(dashboard.getByTestId('create-project-tile')).toBeVisible({ timeout: 30_000 });
  await dashboard.waitForLoadState('networkidle');
  const sizes = await dashboard.evaluate<{ url: string; bytes: number }[]>(`performance
    .getEntriesByType('resource')
    .filter((entry) => entry.initiatorType === 'script' || entry.name.endsWith('.js'))
    .map((entry) => ({ url: entry.name, bytes: entry.encodedBodySize }))`);
  const total = sizes.reduce((sum, entry) => sum + entry.bytes, 0);
  const largest = [...sizes].sort((a, b) => b.bytes - a.bytes).slice(0, 8).map((entry) => `${new URL(entry.url).pathname} ${(entry.bytes / 1024).toFixed(1)} KB`);
  console.log(`dashboard first load: ${sizes.length} scripts, ${(total / 1024).toFixed(1)} KB transferred; largest: ${largest.join(', ')}`);
  await context.close();
  expect(sizes.length).toBeGreaterThan(0);
  expect(total).toBeLessThanOrEqual(DASHBOARD_JS_BUDGET);
});
