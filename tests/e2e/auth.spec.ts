import { expect, test, type Page } from '@playwright/test';
import { newEmail, recoveryLinkFor, signIn, signUp, snap, snapWidths, openReady } from './support';

/** The spec's toast for a reset link that cannot be used. */
const invalidLinkToast = (page: Page) =>
  page.getByTestId('toast').filter({ hasText: 'Invalid reset link' }).filter({ hasText: 'This reset link is invalid or expired. Please request a new one.' });

test('sign up, sign in, reach the projects page, sign out', async ({ page }) => {
  const email = newEmail();
  await page.goto('/signup');
  await expect(page.getByText('Create Account')).toBeVisible();
  await expect(page.getByText('Sign up to access the monitoring dashboard')).toBeVisible();
  await snap(page, 'signup');

  await signUp(page, email, 'secret123');
  await expect(page.getByText('Your account has been created. You can now log in.')).toBeVisible();
  await expect(page.getByText('Welcome Back')).toBeVisible();
  await snap(page, 'login-after-signup');

  await signIn(page, email, 'secret123');
  await expect(page).toHaveURL(/\/dashboard\/projects$/);
  await expect(page.getByText('You have successfully signed in.')).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();
  await expect(page.getByText('vibeeval v1.0')).toBeVisible();
  await snap(page, 'dashboard-projects');

  // A signed-in user who opens /login goes to the dashboard.
  await openReady(page, '/login');
  await expect(page).toHaveURL(/\/dashboard\/projects$/);

  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await openReady(page, '/dashboard/events');
  await expect(page).toHaveURL(/\/login$/);
});

test('a guarded page while signed out goes to /login', async ({ page }) => {
  await openReady(page, '/dashboard/reports');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('Sign in to access your dashboard and projects')).toBeVisible();
  await snap(page, 'login');
});

test('signup validation: mismatch and short passwords', async ({ page }) => {
  await openReady(page, '/signup');
  await page.getByLabel('Email').fill(newEmail());
  await page.getByLabel('Password', { exact: true }).fill('secret123');
  await page.getByLabel('Confirm Password').fill('secret124');
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expect(page.getByText("Passwords don't match")).toBeVisible();
  await page.getByLabel('Password', { exact: true }).fill('12345');
  await page.getByLabel('Confirm Password').fill('12345');
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await expect(page.getByText('Password must be at least 6 characters long.')).toBeVisible();
  await expect(page).toHaveURL(/\/signup$/);
});

test('wrong password shows the error toast', async ({ page }) => {
  const email = newEmail();
  await signUp(page, email, 'secret123');
  await signIn(page, email, 'not-the-password');
  await expect(page.getByText('Error signing in')).toBeVisible();
  await expect(page.getByText('Invalid login credentials')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

test('forgot password: mail, link, new password, sign in with it', async ({ page }) => {
  const email = newEmail();
  await signUp(page, email, 'old-secret');

  await page.getByText('Forgot password?').click();
  await expect(page.getByText('Enter your email to receive a password reset link')).toBeVisible();
  await snap(page, 'forgot-password');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(page.getByText('Reset link sent!')).toBeVisible();
  await expect(page.getByText('Please check your email inbox and follow the instructions to reset your password.')).toBeVisible();
  await snap(page, 'reset-link-sent');

  const link = await recoveryLinkFor(email);
  await page.goto(link);
  await expect(page).toHaveURL(/\/reset-password/);
  await expect(page.getByText('Create a new secure password for your account')).toBeVisible();
  await snap(page, 'reset-password-valid');
  await page.getByLabel('New Password').fill('new-secret');
  await page.getByLabel('Confirm Password').fill('new-secret');
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByText('Your password has been updated successfully.')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/, { timeout: 5_000 });

  // The same link again, now used: the spec's toast over the invalid-link panel.
  await page.goto(link);
  await expect(invalidLinkToast(page)).toBeVisible();
  await expect(page.getByText('Invalid or Expired Link')).toBeVisible();
  await snapWidths(page, 'reset-link-used');
  await page.getByRole('button', { name: 'Back to Login' }).click();
  await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible();

  await signIn(page, email, 'new-secret');
  await expect(page).toHaveURL(/\/dashboard\/projects$/);
});

test('a reset link without type=recovery is invalid', async ({ page }) => {
  await page.goto('/reset-password#access_token=abc');
  await expect(page.getByText('Invalid or Expired Link')).toBeVisible();
  await expect(invalidLinkToast(page)).toBeVisible();
  await expect(page.getByText('Please return to the login page and request a new password reset link.')).toBeVisible();
  await snap(page, 'reset-password-invalid');
  await page.getByRole('button', { name: 'Back to Login' }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test('a recovery link whose tokens give no session is invalid', async ({ page }) => {
  await page.goto('/reset-password#access_token=not-a-token&expires_in=3600&refresh_token=nope&token_type=bearer&type=recovery');
  await expect(invalidLinkToast(page)).toBeVisible();
  await expect(page.getByText('Invalid or Expired Link')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Reset Password' })).toHaveCount(0);
});

test('unknown paths show the not-found page', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByText('Page not found')).toBeVisible();
  await expect(page.getByText('/no/such/page')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Return Home' })).toHaveAttribute('href', '/');
  await snap(page, 'not-found');
});

test.describe('small screens', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('the sidebar becomes the Menu drawer', async ({ page }) => {
    const email = newEmail();
    await signUp(page, email, 'secret123');
    await signIn(page, email, 'secret123');
    await expect(page).toHaveURL(/\/dashboard\/projects$/);
    // The email is hidden on small screens.
    await expect(page.getByText(email)).toBeHidden();
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('dialog', { name: 'Menu' });
    await expect(menu).toBeVisible();
    await expect(menu.getByText('Project List')).toBeVisible();
    // Let the slide-in finish so the screenshot shows the open menu.
    type Animated = { getAnimations(options: { subtree: boolean }): { finished: Promise<unknown> }[] };
    await menu.evaluate((el) => Promise.all((el as unknown as Animated).getAnimations({ subtree: true }).map((a) => a.finished)));
    await snap(page, 'dashboard-menu-375');
    await menu.getByText('Events').click();
    await expect(page).toHaveURL(/\/dashboard\/events$/);
  });
});
