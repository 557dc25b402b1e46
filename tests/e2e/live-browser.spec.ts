import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations, snap, startTestSite, withCookieChoice, openReady } from './support';

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
  await openReady(page, '/vibe-loop');
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
  await openReady(page, '/vibe-loop');
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
  await openReady(page, '/vibe-loop');
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

/**
 * The desktop mode's page side, in Chromium: a stand-in for the preload's `window.vibeeval` records the live
 * browser calls the page makes and lets the test send main's state events (the native view itself needs Electron,
 * which cannot be downloaded here; electron/live-browser.test.ts covers main's side). A string: this file is
 * type-checked without the DOM library.
 */
const FAKE_DESKTOP_BRIDGE = `(() => {
  const calls = [];
  const listeners = {};
  const vault = new Map();
  const record = (name) => async (arg) => {
    calls.push([name, arg]);
    return name === 'navigate' ? true : undefined;
  };
  window.__browserCalls = calls;
  window.__emit = (channel, payload) => (listeners[channel] || []).forEach((listener) => listener(payload));
  window.vibeeval = {
    kind: 'desktop',
    app: {
      info: async () => ({ serverOrigin: location.origin, version: '0.0.0', platform: 'linux' }),
      relaunch: async () => undefined,
      takeNotices: async () => [],
    },
    workspace: { select: record('workspace') },
    settings: {
      get: async () => ({ desktopNotifications: true, server: { mode: 'embedded' }, activeServerOrigin: location.origin, restartRequired: false }),
      setNotifications: async () => undefined,
      setServer: async () => ({ ok: true, restartRequired: true }),
    },
    auth: { startGoogle: async () => true },
    vault: {
      getItem: async (key) => (vault.has(key) ? vault.get(key) : null),
      setItem: async (key, value) => void vault.set(key, value),
      removeItem: async (key) => void vault.delete(key),
    },
    shell: { openExternal: async () => true },
    reports: { open: async () => true },
    browser: {
      show: async (url, bounds) => {
        calls.push(['show', { url, bounds }]);
        return true;
      },
      navigate: async (url) => {
        calls.push(['navigate', { url }]);
        return true;
      },
      back: record('back'),
      forward: record('forward'),
      reload: record('reload'),
      setBounds: record('setBounds'),
      hide: record('hide'),
    },
    events: {
      subscribe: (channel, listener) => {
        (listeners[channel] = listeners[channel] || []).push(listener);
        return () => (listeners[channel] = listeners[channel].filter((other) => other !== listener));
      },
    },
  };
})();`;

type Call = [string, { url?: string; bounds?: { x: number; y: number; width: number; height: number } } & { x?: number; y?: number; width?: number; height?: number }];
const calls = (page: Page) => page.evaluate<Call[]>('window.__browserCalls');

test('live browser (desktop page): shows the site over the box, follows it, reflects main state, closes on leaving', async ({ page }) => {
  await page.addInitScript({ content: FAKE_DESKTOP_BRIDGE });
  await openReady(page, '/vibe-loop');
  const browser = page.getByTestId('live-browser');
  await browser.scrollIntoViewIfNeeded();
  await expect(browser).toContainText('in a browser of its own');

  await go(page, 'example.com');
  await expect.poll(async () => (await calls(page)).find(([name]) => name === 'show')?.[1]?.url).toBe('https://example.com/');
  const box = await page.getByTestId('browser-view').boundingBox();
  const shown = (await calls(page)).find(([name]) => name === 'show')![1].bounds!;
  expect(shown).toEqual({ x: Math.round(box!.x), y: Math.round(box!.y), width: Math.round(box!.width), height: Math.round(box!.height) });

  // Scrolling moves the box: main is told where it went; the part under the sticky top bar is cut off.
  // Scrolled in one step (a wheel scroll runs over frames and may be dropped while the page is busy).
  await page.evaluate("window.scrollBy({ top: 120, behavior: 'instant' })");
  await expect
    .poll(async () => (await calls(page)).filter(([name]) => name === 'setBounds').at(-1)?.[1]?.y)
    .toBe(Math.round((await page.getByTestId('browser-view').boundingBox())!.y));
  const barBottom = await page.evaluate<number>("document.querySelector('header').getBoundingClientRect().bottom");
  // Far enough that the box's top goes 100 px under the bar, wherever the page stood.
  const boxTop = (await page.getByTestId('browser-view').boundingBox())!.y;
  await page.evaluate(`window.scrollBy({ top: ${Math.ceil(boxTop - barBottom + 100)}, behavior: 'instant' })`);
  await expect.poll(async () => (await calls(page)).filter(([name]) => name === 'setBounds').at(-1)?.[1]?.y).toBe(Math.round(barBottom));
  const boxNow = (await page.getByTestId('browser-view').boundingBox())!;
  const cut = (await calls(page)).filter(([name]) => name === 'setBounds').at(-1)![1];
  expect(cut.height).toBe(Math.round(boxNow.y + boxNow.height - barBottom));

  // Main's state: the address follows the page, Back lights up, a failure is said plainly.
  await page.evaluate(`window.__emit('vibeeval:event:browser', { url: 'https://example.com/about', title: 'About', loading: false, canGoBack: true, canGoForward: false })`);
  await expect(address(page)).toHaveValue('https://example.com/about');
  await page.getByRole('button', { name: 'Back' }).click();
  await expect.poll(async () => (await calls(page)).some(([name]) => name === 'back')).toBe(true);
  await page.evaluate(
    `window.__emit('vibeeval:event:browser', { url: 'https://nowhere.invalid/', title: '', loading: false, canGoBack: true, canGoForward: false, error: 'nowhere.invalid cannot be reached: its address could not be found.' })`,
  );
  await expect(page.getByTestId('browser-load-error')).toHaveText('nowhere.invalid cannot be reached: its address could not be found.');

  await go(page, 'file:///etc/passwd');
  await expect(page.getByRole('alert').filter({ hasText: 'Only http and https addresses can be shown.' })).toBeVisible();
  expect((await calls(page)).filter(([name]) => name === 'navigate')).toEqual([]);
  await go(page, 'example.org');
  await expect.poll(async () => (await calls(page)).find(([name]) => name === 'navigate')?.[1]).toEqual({ url: 'https://example.org/' });
  await page.screenshot({ path: 'test-results/screens/live-browser-desktop-1280.png' });

  // Leaving the page (a client-side navigation) closes the view.
  await page.getByRole('link', { name: 'Pricing' }).first().click();
  await expect.poll(async () => (await calls(page)).some(([name]) => name === 'hide')).toBe(true);
});
