import { expect, test } from '@playwright/test';
import { OAuth2Server } from 'oauth2-mock-server';
// The sign-in pages are prerendered: their buttons act once the app has taken the page over (openReady).
import { newEmail, openReady, snap, snapWidths, startAppServer } from './support';

// The shared server has no Google client: both sign-in pages say so and never leave for a provider.
test("'Continue with Google' without a Google client shows the not-configured toast", async ({ page }) => {
  const left: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/auth/v1/authorize')) left.push(request.url());
  });
  await openReady(page, '/login');
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await expect(page.getByText('Error signing in with Google')).toBeVisible();
  await expect(page.getByText('Sign-in with Google is not configured on this server.')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  await snapWidths(page, 'google-not-configured-login');

  await openReady(page, '/signup');
  await page.getByRole('button', { name: 'Continue with Google' }).click();
  await expect(page.getByText('Error signing up with Google')).toBeVisible();
  await expect(page.getByText('Sign-in with Google is not configured on this server.')).toBeVisible();
  await snapWidths(page, 'google-not-configured-signup');
  expect(left).toEqual([]);
});

// The stand-in for Google: oauth2-mock-server, a local OpenID Connect provider that approves at once and signs
// ID tokens for the user the test names.
test.describe('sign-in with Google through the stand-in provider', () => {
  const google = new OAuth2Server();
  const email = newEmail();
  let app: Awaited<ReturnType<typeof startAppServer>>;

  test.beforeAll(async () => {
    await google.issuer.keys.generate('RS256');
    await google.start(0, '127.0.0.1');
    google.service.on('beforeTokenSigning', (token: { payload: Record<string, unknown> }) =>
      Object.assign(token.payload, { sub: `google-${email}`, email, email_verified: true, name: 'E2E Google User' }),
    );
    app = await startAppServer({ GOOGLE_CLIENT_ID: 'vibeeval-e2e', GOOGLE_CLIENT_SECRET: 'e2e-secret', GOOGLE_ISSUER_URL: google.issuer.url! });
  });
  test.afterAll(async () => {
    await app?.stop();
    await google.stop();
  });

  test("'Continue with Google' goes through the provider and lands on the dashboard signed in", async ({ page }) => {
    await openReady(page, `${app.origin}/login`);
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    await expect(page).toHaveURL(new RegExp(`^${app.origin}/dashboard`));
    await expect(page.getByText(email)).toBeVisible();
    // The session's tokens are not left in the address bar.
    expect(new URL(page.url()).hash).not.toContain('access_token');
    await snap(page, 'google-signed-in-dashboard');

    // Signed in for real: opening /login goes straight back to the dashboard.
    await page.goto(`${app.origin}/login`);
    await expect(page).toHaveURL(new RegExp(`^${app.origin}/dashboard`));
  });
});
