import { expect, test, type Page } from '@playwright/test';
import { DEMO_URLS, SAMPLE_REPORTS, type DemoType } from '../../common/marketing';
import { startSmtpCapture } from '../../server/testing/smtp-capture';
import { expectNoSeriousA11yViolations, newEmail, snap, snapWidths, startAppServer, startTestSite, withCookieChoice, openReady } from './support';

// The hero's URL test (spec sections 2, 5, 8): the status machine on a fake clock, the dialogs, the demo
// examples and the real public scan call, down to the report mailed through a local SMTP server.

const field = (page: Page) => page.getByLabel('Website URL');
const submit = (page: Page) => page.getByRole('button', { name: /Test for free|Testing\.\.\./ });
const status = (page: Page) => page.getByTestId('url-status');

test.beforeEach(async ({ page }) => {
  // No cookie banner over the hero.
  await withCookieChoice(page);
});

/** Fake timers, paused before the page loads: only runFor moves time from here. */
async function stopClock(page: Page) {
  const start = new Date('2026-11-21T10:00:00Z').getTime();
  await page.clock.install({ time: start });
  await page.clock.pauseAt(start + 1000);
}

test('the URL status follows typing after 500 ms, and at once on clearing', async ({ page }) => {
  await stopClock(page);
  await openReady(page, '/');
  await expect(status(page)).toContainText('Paste the address of your deployed app');
  await expect(submit(page)).toBeDisabled();

  await field(page).fill('example.com');
  await page.clock.runFor(499);
  await expect(status(page)).not.toContainText('Ready to test');
  await page.clock.runFor(1);
  await expect(status(page)).toContainText('Ready to test for vulnerabilities');
  await expect(status(page)).toContainText('Valid URL');
  await expect(submit(page)).toBeEnabled();

  await field(page).fill('not a url');
  await page.clock.runFor(500);
  await expect(status(page)).toHaveText('Please enter a valid website URL');
  await expect(field(page)).toHaveAttribute('aria-invalid', 'true');
  await expect(submit(page)).toBeDisabled();

  // Clearing is idle at once, without waiting.
  await field(page).fill('');
  await expect(status(page)).toContainText('Paste the address of your deployed app');
  await expect(submit(page)).toBeDisabled();
});

test('the Lovable editor URL is refused with its badge', async ({ page }) => {
  await stopClock(page);
  await openReady(page, '/');
  await field(page).fill('https://lovable.dev/projects/8d0c6f6e-2a1b-4c3d-9e8f-0a1b2c3d4e5f');
  await page.clock.runFor(500);
  await expect(status(page)).toContainText('Please use the deployed URL for this project, not the Lovable editor URL');
  await expect(status(page)).toContainText('Use deployed URL');
  await expect(submit(page)).toBeDisabled();
});

test("the product's own domain opens 'Nice try, hacker!'", async ({ page }) => {
  await openReady(page, '/');
  await field(page).fill('app.vibe-eval.com');
  await submit(page).click();
  const dialog = page.getByRole('alertdialog', { name: 'Nice try, hacker! 😎' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("You can't scan vibeeval with vibeeval");
  await snap(page, 'landing-own-domain');
  await dialog.getByRole('button', { name: 'Okay, my bad!' }).click();
  await expect(dialog).toBeHidden();
});

test('a demo example fills the field, shows its sample report and opens the email dialog', async ({ page }) => {
  await openReady(page, '/');
  const card = page.getByTestId('sample-report');
  await expect(card).toHaveAttribute('data-type', 'default');
  await expect(card).toContainText(SAMPLE_REPORTS.default.title);
  await expect(card).toContainText('Scan completed in 2.3 seconds');
  await expect(card).toContainText('AI Agent: SecurityBot-v2');
  await expect(card.getByText('Application Configuration Secure')).toBeVisible();

  const expected: Record<DemoType, [string, string]> = { ecommerce: ['E-commerce store', '2/2/12'], social: ['Social network', '1/2/15'], banking: ['Banking dashboard', '3/1/8'] };
  for (const [demo, [label, counts]] of Object.entries(expected) as [DemoType, [string, string]][]) {
    await page.getByRole('button', { name: label }).click();
    const dialog = page.getByTestId('email-dialog');
    await expect(dialog.getByRole('heading', { name: 'Thank You' })).toBeVisible();
    // The field and its status are set at once (no 500 ms wait).
    await expect(field(page)).toHaveValue(DEMO_URLS[demo]);
    await expect(status(page)).toContainText('Valid URL');
    await expect(card).toHaveAttribute('data-type', demo);
    const [critical, moderate, secure] = counts.split('/');
    await expect(card.getByTestId('count-critical')).toHaveText(`${critical} critical`);
    await expect(card.getByTestId('count-moderate')).toHaveText(`${moderate} moderate`);
    await expect(card.getByTestId('count-secure')).toHaveText(`${secure} secure components`);
    await expect(card.locator('li[data-tone="critical"]')).toHaveCount(Number(critical));
    await expect(card.locator('li[data-tone="critical"]').first()).toContainText('Critical');
    await expect(card.locator('li[data-tone="moderate"]')).toHaveCount(Number(moderate));
    await expect(card.locator('li[data-tone="moderate"]').first()).toContainText('Medium Risk');
    await expect(card.locator('li[data-tone="secure"]')).toContainText('Passed');

    // The demo type is sent as its demo URL.
    const email = newEmail();
    await dialog.getByLabel('Email').fill(email);
    const request = page.waitForRequest((r) => r.url().endsWith('/v2/vibe-scanner') && r.method() === 'POST');
    await dialog.getByRole('button', { name: 'Send my report' }).click();
    expect((await request).postDataJSON()).toEqual({ url: DEMO_URLS[demo], email });
    await expect(dialog).toContainText('We will send your detailed security analysis to your email shortly.');
    await dialog.getByRole('button', { name: 'Close' }).first().click();
    await expect(dialog).toBeHidden();
  }

  await card.getByRole('button', { name: 'Close sample report' }).click();
  await expect(card).toBeHidden();
  await page.getByRole('button', { name: 'Show sample report' }).click();
  await expect(page.getByTestId('sample-report')).toHaveAttribute('data-type', 'default');
});

test('submit: Testing... for 800 ms, the email dialog, the POST body, and the report mailed by a real scan', async ({ page }) => {
  test.setTimeout(120_000);
  const smtp = await startSmtpCapture();
  const app = await startAppServer({ SMTP_URL: smtp.url, VIBEEVAL_SCAN_RENDER: 'false', VIBEEVAL_SCAN_RATE: '0' });
  const site = await startTestSite({ '/': { type: 'text/html', body: '<!doctype html><title>Shop</title><h1>Shop</h1>' } }, { type: 'text/html', body: 'not found' });
  try {
    await stopClock(page);
    await openReady(page, app.origin);
    await field(page).fill(site.url);
    await page.clock.runFor(500);
    await expect(status(page)).toContainText('Valid URL');

    let posted = 0;
    page.on('request', (r) => {
      if (r.url().endsWith('/v2/vibe-scanner')) posted++;
    });
    await submit(page).click();
    await expect(page.getByRole('button', { name: 'Testing...' })).toBeDisabled();
    await page.clock.runFor(799);
    await expect(page.getByTestId('email-dialog')).toBeHidden();
    await page.clock.runFor(1);
    const dialog = page.getByTestId('email-dialog');
    await expect(dialog.getByRole('heading', { name: 'Thank You' })).toBeVisible();
    // The form's own submit makes no call.
    expect(posted).toBe(0);

    await dialog.getByLabel('Email').fill('not-an-email');
    await dialog.getByRole('button', { name: 'Send my report' }).click();
    await expect(dialog).toContainText('Please enter a valid email address');
    expect(posted).toBe(0);
    await snap(page, 'landing-email-dialog');

    const email = newEmail();
    await dialog.getByLabel('Email').fill(email);
    const request = page.waitForRequest((r) => r.url().endsWith('/v2/vibe-scanner'));
    const response = page.waitForResponse((r) => r.url().endsWith('/v2/vibe-scanner'));
    await dialog.getByRole('button', { name: 'Send my report' }).click();
    expect((await request).postDataJSON()).toEqual({ url: site.url, email });
    expect((await response).status()).toBe(202);
    await expect(page.getByTestId('toast').filter({ hasText: 'Email submitted successfully!' })).toBeVisible();
    await expect(dialog).toContainText('We will send your detailed security analysis to your email shortly.');
    await snap(page, 'landing-email-sent');

    const mail = await smtp.next(email, 60_000);
    expect(mail.subject).toMatch(/^Your vibeeval security report for 127\.0\.0\.1:\d+: grade /);
    expect(mail.text).toContain(`vibeeval scanned ${site.url}`);
    expect(mail.attachments[0]?.filename).toMatch(/\.html$/);
    expect(mail.attachments[0]?.content).toContain(site.url);
  } finally {
    await site.close();
    await app.stop();
    await smtp.close();
  }
});

test('the landing page with its URL test has no serious accessibility violation', async ({ page }) => {
  await openReady(page, '/');
  await field(page).fill('example.com');
  await expect(status(page)).toContainText('Valid URL');
  await expectNoSeriousA11yViolations(page);
  await snapWidths(page, 'landing-url-test');
});
