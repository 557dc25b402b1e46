import { expect, test, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations, openReady, snapWidths, withCookieChoice } from './support';

// Every public route of spec section 2 not covered page by page elsewhere (landing, company, updates specs):
// the sign-in screens and the not-found page, with the checks all public pages share.

const scrollWidth = (page: Page) => page.evaluate<number>('document.documentElement.scrollWidth');

test.beforeEach(async ({ page }) => {
  await withCookieChoice(page);
});

const routes = [
  { path: '/login', title: 'Login | vibeeval', text: 'Welcome Back', name: 'login' },
  { path: '/signup', title: 'Sign Up | vibeeval', text: 'Create Account', name: 'signup' },
  { path: '/reset-password', title: 'Reset Your Password | vibeeval', text: 'Reset Your Password', name: 'reset-password' },
  { path: '/no/such/page', title: 'Page not found | vibeeval', text: 'Page not found', name: 'not-found' },
] as const;

for (const route of routes) {
  test(`${route.path}: its title, texts, footer, accessibility and both widths`, async ({ page }) => {
    // The checks are of the page as it is used: before the app runs, a prerendered form is shown disabled (faded),
    // which axe would judge as the page's colours.
    await openReady(page, route.path);
    await expect(page.getByRole('heading', { level: 1 }).first()).toContainText(route.text);
    await expect(page).toHaveTitle(route.title);
    // The public layout's footer is on every public page.
    await expect(page.getByRole('contentinfo').getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy');
    await expectNoSeriousA11yViolations(page);
    await page.setViewportSize({ width: 375, height: 812 });
    expect(await scrollWidth(page)).toBeLessThanOrEqual(375);
    await snapWidths(page, `route-${route.name}`);
  });
}

test('the not-found page names the path and links home and to support', async ({ page }) => {
  await page.goto('/pricing-typo?x=1');
  await expect(page.getByTestId('not-found-path')).toHaveText('/pricing-typo');
  await expect(page.getByRole('link', { name: 'Contact Support' })).toHaveAttribute('href', 'mailto:support@vibe-eval.com');
  await page.getByRole('link', { name: 'Return Home' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Find the security holes');
});
