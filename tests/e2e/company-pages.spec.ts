import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations, snapWidths, withCookieChoice, openReady } from './support';

test.beforeEach(async ({ page }) => {
  await withCookieChoice(page);
});

/** The heading, document title, accessibility and layout checks every company page shares. */
async function expectPublicPage(page: Page, title: string, snapName: string) {
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
  await expect(page).toHaveTitle(`${title} | vibeeval`);
  await expectNoSeriousA11yViolations(page);

  // No horizontal scroll on a small phone. (String expressions: this file is type-checked without the DOM library.)
  await page.setViewportSize({ width: 375, height: 812 });
  await expect.poll(() => page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
  // Full-page shots from the top, so the sticky bar is drawn where it belongs.
  await page.evaluate('window.scrollTo(0, 0)');
  await snapWidths(page, snapName);
}

test('/terms: effective date, the own-or-permission rule, plans and the legal contact', async ({ page }) => {
  await openReady(page, '/terms');
  const main = page.getByRole('main');
  await expect(main.locator('time[datetime="2025-04-21"]')).toHaveText('April 21, 2025');
  await expect(main).toContainText('You must own, or have written permission to test, every domain and URL you submit to vibeeval.');
  await expect(main).toContainText('read-only by default');
  await expect(main).toContainText('Active probes run only when you explicitly opt in');
  await expect(main).toContainText('Public quick scans on our website');
  await expect(main).toContainText('Basic ($7/month) and Pro ($15/month)');
  await expect(main).toContainText('14-day free trial');
  await expect(main).toContainText('Lifetime Pro ($149 one-time)');
  await expect(main).toContainText('30-day money-back guarantee');
  await expect(main).toContainText('No scan finds every issue.');
  await expect(main).toContainText('Limitation of liability');
  await expect(main).toContainText('laws of the State of California, USA');
  await expect(main.locator('a[href^="mailto:legal@vibe-eval.com"]')).toHaveText('legal@vibe-eval.com');
  await expect(main.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy');

  // The table of contents moves focus to the section it names.
  await page.getByRole('navigation', { name: 'Contents' }).getByRole('link', { name: '13. Changes to these terms' }).click();
  await expect(page.getByRole('heading', { level: 2, name: '13. Changes to these terms' })).toBeFocused();
  await expect(page).toHaveURL(/\/terms$/);

  await expectPublicPage(page, 'Terms of Use', 'terms');
});

test('/privacy: local-first storage, the quick scan, consent key, rights and contact', async ({ page }) => {
  await openReady(page, '/privacy');
  const main = page.getByRole('main');
  await expect(main.locator('time[datetime="2025-04-21"]')).toHaveText('April 21, 2025');
  await expect(main).toContainText('in an embedded PostgreSQL database');
  await expect(main).toContainText('the session is kept in your operating system\u2019s keychain');
  await expect(main).toContainText('your browser keeps the sign-in session in its localStorage');
  await expect(main).toContainText('collects the URL you want tested and your email address');
  await expect(main).toContainText('mail you the report');
  await expect(main.locator('code', { hasText: 'cookie-consent' })).toBeVisible();
  await expect(main.getByRole('row', { name: /Necessary.*Always on/ })).toBeVisible();
  await expect(main.getByRole('row', { name: /Analytics.*Off until you opt in/ })).toBeVisible();
  await expect(main.getByRole('row', { name: /Marketing.*Off until you opt in/ })).toBeVisible();
  await expect(main).toContainText('reads only what a site serves publicly');
  await expect(main).toContainText('Secrets are masked.');
  await expect(main.getByRole('heading', { level: 2, name: /How long we keep it/ })).toBeVisible();
  await expect(main.getByRole('heading', { level: 2, name: /Your rights/ })).toBeVisible();
  await expect(main.locator('a[href^="mailto:privacy@vibe-eval.com"]').first()).toHaveText('privacy@vibe-eval.com');

  await expectPublicPage(page, 'Privacy Policy', 'privacy');
});

test('/press: key facts, downloadable SVG brand assets, colours, boilerplate and press contact', async ({ page }) => {
  await openReady(page, '/press');
  const main = page.getByRole('main');
  await expect(main.getByText('Founded', { exact: true })).toBeVisible();
  await expect(page.getByTestId('fact-founded')).toHaveText('2025');
  await expect(page.getByTestId('fact-headquarters')).toHaveText('San Francisco, California');
  await expect(page.getByTestId('boilerplate')).toContainText('Founded in 2025, the company is headquartered in San Francisco.');
  await expect(page.getByTestId('press-contact')).toHaveAttribute('href', 'mailto:press@vibe-eval.com?subject=Press%20inquiry');
  for (const hex of ['#4F46E5', '#4338CA', '#EEF2FF', '#18181B', '#FFFFFF']) {
    await expect(page.getByTestId('brand-colour-hex').filter({ hasText: hex })).toHaveCount(1);
  }

  // Every asset: a download link to an SVG that the server really serves, and a preview image that loaded.
  const downloads = page.getByTestId('brand-download');
  await expect(downloads).toHaveCount(3);
  for (const link of await downloads.all()) {
    const href = (await link.getAttribute('href'))!;
    expect(href).toMatch(/^\/brand\/vibeeval-[a-z-]+\.svg$/);
    expect(await link.getAttribute('download')).toBe(href.split('/').pop());
    const response = await page.request.get(href);
    expect(response.status(), href).toBe(200);
    expect(response.headers()['content-type'], href).toContain('image/svg+xml');
    expect(await response.text(), href).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    const preview = main.locator(`img[src="${href}"]`);
    await expect(preview).toHaveAttribute('alt', /vibeeval/);
    await expect(preview).toHaveJSProperty('complete', true);
    await expect(preview).not.toHaveJSProperty('naturalWidth', 0);
  }

  await expectPublicPage(page, 'Press Kit', 'press');
});

test('/affiliate: every program constant, the plans and apply by email', async ({ page }) => {
  await openReady(page, '/affiliate');
  const main = page.getByRole('main');
  await expect(page.getByTestId('commission-basic')).toHaveText('$2.10');
  await expect(page.getByTestId('commission-pro')).toHaveText('$4.50');
  await expect(page.getByTestId('commission-lifetime')).toHaveText('$29.80');
  for (const text of [
    '30% recurring',
    'for the first 12 months',
    '20% one-time',
    '90-day cookie',
    '$50 minimum payout',
    'wire transfer for earnings over $500',
    'by the 10th of each month',
    '+5%',
    'Refer 10 or more paying customers in a calendar month',
    '$25',
    'The first 50 affiliates who refer one paying customer within 30 days',
    '$7/month · 14-day free trial',
    '$15/month · 14-day free trial',
    '$149 one-time · 30-day money-back',
  ]) {
    await expect(main, text).toContainText(text);
  }
  for (const name of ['Who should join', 'Commissions', 'Tools', 'The fine print']) {
    await expect(main.getByText(name, { exact: true })).toBeVisible();
  }
  const apply = 'mailto:affiliates@vibe-eval.com?subject=Affiliate%20program%20application';
  await expect(main.getByRole('link', { name: 'Apply by email' }).first()).toHaveAttribute('href', apply);
  await expect(page.getByTestId('affiliate-apply')).toHaveAttribute('href', apply);
  await expect(main.getByRole('link', { name: 'press kit' })).toHaveAttribute('href', '/press');

  await expectPublicPage(page, 'Affiliate Program', 'affiliate');
});

test('/use-cases: four audiences, each with the problem and the features, and the calls to action', async ({ page }) => {
  await openReady(page, '/use-cases');
  const main = page.getByRole('main');
  for (const name of ['Solo developer', 'Startup', 'Agency', 'Enterprise']) {
    await expect(main.getByRole('heading', { level: 2, name, exact: true })).toBeVisible();
  }
  await expect(main.getByRole('heading', { level: 3, name: 'The problem' })).toHaveCount(4);
  await expect(main.getByRole('heading', { level: 3, name: 'What vibeeval does' })).toHaveCount(4);
  for (const text of [
    'Supabase checks',
    'Firebase checks',
    '100+ secret patterns',
    'npx vibeeval scan <url>',
    '--fail-on',
    'HTTP Observatory-compatible header grade',
    'Reports in HTML, PDF, CSV, JSON and SARIF',
    'AI browser test scenarios in real Chromium',
    'Team mode on your own PostgreSQL',
    'Webhooks and API keys',
    'A desktop app with no cloud account.',
  ]) {
    await expect(main, text).toContainText(text);
  }
  await expect(main.getByRole('link', { name: 'Try Now' })).toHaveAttribute('href', '/signup');
  await expect(main.getByRole('link', { name: 'See pricing' })).toHaveAttribute('href', '/#pricing');

  // An overview card jumps to its section and hands it the focus.
  await main.getByRole('link', { name: /^Agency/ }).click();
  await expect(main.getByRole('heading', { level: 2, name: 'Agency', exact: true })).toBeFocused();

  await expectPublicPage(page, 'Use Cases', 'use-cases');
});
