import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations, signedIn, snapBoth, openReady } from './support';

// The Support screen (spec section 2, Support): the Contact tab with the support email and the reply time, the FAQ
// tab with its three answers, and each answer's links leading to the screens they describe.

test('Support: contact email and reply time, FAQ with working links, at 1280 and 375 px, axe clean', async ({ page }) => {
  test.setTimeout(120_000);
  await signedIn(page);
  await openReady(page, '/dashboard/support');
  await expect(page.getByRole('heading', { name: 'Support', level: 1 })).toBeVisible({ timeout: 20_000 });

  // Contact: the address as a mail link and the spec's reply time.
  const email = page.getByTestId('support-email');
  await expect(email).toHaveText('support@vibe-eval.com');
  await expect(email).toHaveAttribute('href', 'mailto:support@vibe-eval.com?subject=Support%20request');
  await expect(page.getByTestId('support-reply-time')).toHaveText('We reply within 24 hours on business days.');
  await expectNoSeriousA11yViolations(page);
  await snapBoth(page, 'support-contact');

  // FAQ: the three questions, the tab kept in the address.
  await page.getByRole('tab', { name: 'FAQ' }).click();
  await expect(page).toHaveURL(/\/dashboard\/support\?tab=faq$/);
  await expect(page.getByTestId('faq-create-project')).toContainText('How do I create a project?');
  await expect(page.getByTestId('faq-integrate')).toContainText('webhooks');
  await expect(page.getByTestId('faq-upgrade')).toContainText('Account settings, Billing');
  await expectNoSeriousA11yViolations(page);
  await snapBoth(page, 'support-faq');

  // Every link leads where its answer says.
  const links: [string, RegExp, string][] = [
    ['Go to Projects', /\/dashboard\/projects$/, 'Projects'],
    ['Set up webhooks', /\/dashboard\/webhook$/, 'Webhook'],
    ['Open the API', /\/dashboard\/api$/, 'API'],
    ['Open Billing', /\/dashboard\/billing$/, 'Plan & Billing'],
  ];
  for (const [label, url, heading] of links) {
    await openReady(page, '/dashboard/support?tab=faq');
    await page.getByRole('link', { name: label }).click();
    await expect(page).toHaveURL(url);
    await expect(page.getByRole('heading', { level: 1 })).toContainText(heading, { timeout: 20_000 });
  }
});
