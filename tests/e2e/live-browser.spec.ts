import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations, snap, startTestSite, withCookieChoice } from './support';

// /vibe-loop's Live Browser Demo in web mode: the site in an iframe where it allows framing (the server checks its
// headers), a clear message where it does not. The test sites are on 127.0.0.1, which the server under test may
// reach (it listens on 127.0.0.1, so private addresses are allowed, as for local scans).

const PAGE = (title: string) => `<!doctype html><html lang="en"><title>${title}</title><body><h1>${title}</h1><p>Served for the live browser.</p></body></html>`;

let site: Awaited<ReturnType<typeof startTestSite>>;

test.beforeAll(async () => {
  site = await startTestSite(
    {
      '/': { type: 'text/html', body: PAGE('Framable shop') },
      '/pricing': { type: 'text/html', body: PAGE('Framable pricing') },
      '/locked': { type: 'text/html', body: PAGE('Locked bank'), headers: { 'x-frame-options': 'DENY' } },
    },
    { type: 'text/plain', body: 'not found' },
  );
});
test.afterAll(async () => site?.close());

test.beforeEach(async ({ page }) => {
  await withCookieChoice(page);
  await page.setViewportSize({ width: 1280, height: 900 });
});

const address = (page: Page) => page.getByRole('textbox', { name: 'Website address' });
const frame = (page: Page) => page.frameLocator('[data-testid="browser-frame"]');

async function go(page: Page, url: string) {
  await address(page).fill(url);
  await page.getByRole('button', { name: 'Go', exact: true }).click();
}

test('live browser (web): a framable site shows in the frame, Back, Forward and Reload move through it', async ({ page }) => {
  await page.goto('/vibe-loop');
  const browser = page.getByTestId('live-browser');
  await browser.scrollIntoViewIfNeeded();
  await expect(browser).toContainText('Enter the address of a website to see it here.');
  await expect(page.getByRole('button', { name: 'Back' })).toBeDisabled();

  await go(page, site.url);
  await expect(frame(page).getByRole('heading', { name: 'Framable shop' })).toBeVisible();
  const iframe = page.getByTestId('browser-frame');
  await expect(iframe).toHaveAttribute('sandbox', 'allow-scripts allow-forms allow-same-origin');
  await expect(iframe).toHaveAttribute('referrerpolicy', 'no-referrer');

  await go(page, `${site.url}pricing`);
  await expect(frame(page).getByRole('heading', { name: 'Framable pricing' })).toBeVisible();
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(address(page)).toHaveValue(site.url);
  await expect(frame(page).getByRole('heading', { name: 'Framable shop' })).toBeVisible();
  await page.getByRole('button', { name: 'Forward' }).click();
  await expect(frame(page).getByRole('heading', { name: 'Framable pricing' })).toBeVisible();
  await page.getByRole('button', { name: 'Reload' }).click();
  await expect(frame(page).getByRole('heading', { name: 'Framable pricing' })).toBeVisible();

  await expectNoSeriousA11yViolations(page);
  await browser.scrollIntoViewIfNeeded();
  await snap(page, 'live-browser-framed-1280');
  await page.setViewportSize({ width: 375, height: 812 });
  await expect.poll(() => page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
  await browser.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/screens/live-browser-framed-375.png' });
});

test('live browser (web): a site that refuses framing gets the message and a link to open it', async ({ page }) => {
  await page.goto('/vibe-loop');
  await go(page, `${site.url}locked`);
  const host = new URL(site.url).host;
  const refusal = page.getByTestId('framing-refused');
  await expect(refusal).toContainText(`${host} does not allow being shown inside another page (X-Frame-Options / frame-ancestors).`);
  const link = refusal.getByRole('link', { name: 'Open it in a new tab.' });
  await expect(link).toHaveAttribute('href', `${site.url}locked`);
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(page.getByTestId('browser-frame')).toHaveCount(0);
  await page.getByTestId('live-browser').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/screens/live-browser-refused-1280.png' });
  await page.setViewportSize({ width: 375, height: 812 });
  await page.getByTestId('live-browser').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/screens/live-browser-refused-375.png' });
});

test('live browser (web): bad input gets a clear message and loads nothing; a bare host gets https://', async ({ page }) => {
  await page.goto('/vibe-loop');
  await go(page, 'javascript:alert(1)');
  await expect(page.getByRole('alert').filter({ hasText: 'Only http and https addresses can be shown.' })).toBeVisible();
  await go(page, 'not a site');
  await expect(page.getByRole('alert').filter({ hasText: 'This is not a website address.' })).toBeVisible();
  await go(page, new URL(page.url()).origin + '/dashboard');
  await expect(page.getByRole('alert').filter({ hasText: 'The vibeeval server itself cannot be shown in the live browser.' })).toBeVisible();
  await expect(page.getByTestId('browser-frame')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Back' })).toBeDisabled();

  // No internet here: a bare host becomes https://, and the check says the site cannot be reached.
  await go(page, 'nowhere.invalid');
  await expect(address(page)).toHaveValue('https://nowhere.invalid/');
  await expect(page.getByTestId('live-browser')).toContainText('The site cannot be reached');
});
