import { expect, test, type Page } from '@playwright/test';
import { closeToasts, expectNoSeriousA11yViolations, snapBoth, signedIn, openReady } from './support';

// The Plan & Billing screen against the real server and its local billing provider (no payment collected):
// subscribe, upgrade at once, downgrade at period end, the filters, a failed change, cancel, Compare Plans.

const toast = (page: Page, title: string) => page.getByTestId('toast').filter({ hasText: title });
/** The toast with this title and text (the previous change's toast may still be open beside it). */
const toastSaying = (page: Page, title: string, text: string) => toast(page, title).filter({ hasText: text });

/** The en-US long date the screen shows for the period end GET /subscriptions answers next. */
async function periodEndText(page: Page, reload: () => Promise<unknown>): Promise<string> {
  const answer = page.waitForResponse((response) => new URL(response.url()).pathname === '/subscriptions' && response.ok());
  await reload();
  const { subscriptions } = (await (await answer).json()) as { subscriptions: { status: string; current_period_end: number }[] };
  const current = subscriptions.find((subscription) => subscription.status === 'active');
  expect(current, 'an active subscription').toBeDefined();
  return new Date(current!.current_period_end * 1000).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
}

test('Plan & Billing: a failed list, an invoice opened outside, Basic chosen, Pro now, Basic at period end, filters, a failed change, cancel, Compare Plans', async ({ page }) => {
  test.setTimeout(180_000);
  await signedIn(page);
  // The list fails (the first call and the query's two retries): the spec's lead with the status text; Retry loads it.
  await page.route(
    (url) => url.pathname === '/subscriptions',
    (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{}' }),
    { times: 3 },
  );
  await openReady(page, '/dashboard/billing');
  await expect(page.getByRole('heading', { name: 'Plan & Billing', level: 1 })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('alert')).toContainText('Failed to fetch subscriptions: Internal Server Error');
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByText('Manage your subscription plan and billing details')).toBeVisible();
  await expect(page.getByRole('tab', { name: 'My Subscription' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('billing-local-notice')).toContainText('No payment is collected on this server');

  // No subscription: the summary says so, and Choose a Plan opens the plans.
  const summary = page.getByTestId('billing-summary');
  await expect(summary.getByTestId('billing-plan-title')).toHaveText('No Active Subscription');
  await expect(summary).toContainText("Choose a plan below to get started with vibe-eval's security features");
  await expect(summary.getByTestId('billing-status')).toHaveText('No subscription details available');
  await expect(summary.getByRole('button', { name: 'Cancel Subscription' })).toHaveCount(0);
  await closeToasts(page);
  await expectNoSeriousA11yViolations(page);
  await snapBoth(page, 'billing-none');
  await summary.getByRole('button', { name: 'Choose a Plan' }).click();
  const basic = page.getByTestId('plan-card-prod_local_basic');
  const pro = page.getByTestId('plan-card-prod_local_pro');
  const enterprise = page.getByTestId('plan-card-prod_local_enterprise');
  await expect(basic).toContainText('$7');
  await expect(basic).toContainText('/month');
  await expect(basic).toContainText('Essential security for basic projects');
  await expect(pro).toContainText('Most Popular');
  await expect(enterprise).toContainText('Dedicated Support');
  await closeToasts(page);
  await expectNoSeriousA11yViolations(page);
  await snapBoth(page, 'billing-plans-none');

  // A provider that collects payment answers the invoice to pay: it opens outside the app (a new tab on the web).
  const invoiceUrl = new URL('/health?invoice=in_e2e', page.url()).href;
  await page.route(
    (url) => url.pathname === '/subscription',
    (route) =>
      route.fulfill({
        status: 201,
        contentType: 'application/json',
        body: JSON.stringify({
          subscription: {
            id: 'sub_e2e',
            status: 'incomplete',
            current_period_end: 1893456000,
            price_id: 'price_local_pro_month',
            cancel_at_period_end: false,
            pending_price_id: null,
            provider: 'stripe',
            latest_invoice: { hosted_invoice_url: invoiceUrl },
          },
        }),
      }),
    { times: 1 },
  );
  const invoicePage = page.context().waitForEvent('page');
  await pro.getByRole('button', { name: 'Upgrade: Pro' }).click();
  const invoice = await invoicePage;
  await expect.poll(() => invoice.url()).toBe(invoiceUrl);
  await invoice.close();
  await expect(toast(page, 'Subscription Created')).toHaveCount(0);
  await expect(summary.getByTestId('billing-plan-title')).toHaveText('No Active Subscription');
  await summary.getByRole('button', { name: 'Choose a Plan' }).click();

  // Subscribe to Basic: toast, summary, history and features.
  const PERIOD_END_TEXT = await periodEndText(page, () => basic.getByRole('button', { name: 'Upgrade: Basic' }).click());
  await expect(toastSaying(page, 'Subscription Created', "You've successfully subscribed to the plan.")).toBeVisible();
  await expect(summary.getByTestId('billing-plan-title')).toHaveText('Basic Plan');
  await expect(summary.getByTestId('billing-period-line')).toHaveText(`Renews on ${PERIOD_END_TEXT}`);
  await expect(summary.getByTestId('billing-status')).toHaveText('Active subscription');
  await expect(summary.getByTestId('billing-cycle')).toHaveText(`Next billing: ${PERIOD_END_TEXT}`);
  const history = page.getByTestId('billing-history-row');
  await expect(history).toContainText('Basic Plan');
  await expect(history).toContainText('$7/month');
  await expect(history).toContainText('Current Period');
  await expect(history).toContainText('Active');
  await expect(page.getByTestId('billing-features')).toContainText('Basic Security Reports (HTML)');
  await closeToasts(page);
  await expectNoSeriousA11yViolations(page);
  await snapBoth(page, 'billing-basic');
  // The tab bar stays under the dashboard's 64 px header when the page scrolls.
  await page.setViewportSize({ width: 1280, height: 500 });
  await page.evaluate('window.scrollTo(0, document.body.scrollHeight)');
  await expect.poll(async () => (await page.getByRole('tablist', { name: 'Billing views' }).boundingBox())?.y).toBe(64);
  await page.setViewportSize({ width: 1280, height: 800 });

  // Change Plan → Pro: an upgrade takes effect at once.
  await summary.getByRole('button', { name: 'Change Plan' }).click();
  await expect(page.getByRole('button', { name: 'All Plans' })).toHaveAttribute('aria-pressed', 'true');
  await expect(basic.getByRole('button', { name: 'Current Plan' })).toBeDisabled();
  await expect(basic).toContainText('Current Plan');
  await pro.getByRole('button', { name: 'Upgrade: Pro' }).click();
  await expect(toastSaying(page, 'Subscription Updated', "You've successfully upgraded to the new plan.")).toBeVisible();
  await expect(summary.getByTestId('billing-plan-title')).toHaveText('Pro Plan');
  await expect(page.getByTestId('billing-features')).toContainText('Full Reports (PDF, CSV, JSON)');

  // Pro → Basic: a downgrade waits for the period end, and the summary says so.
  await summary.getByRole('button', { name: 'Change Plan' }).click();
  await basic.getByRole('button', { name: 'Downgrade: Basic' }).click();
  await expect(toastSaying(page, 'Subscription Updated', "You've successfully downgraded to the new plan.")).toBeVisible();
  await expect(summary.getByTestId('billing-plan-title')).toHaveText('Pro Plan');
  await expect(summary.getByTestId('billing-scheduled-line')).toHaveText(`Changes to Basic on ${PERIOD_END_TEXT}`);

  // Filters: on Pro, Upgrades shows Enterprise and Downgrades Basic.
  await summary.getByRole('button', { name: 'Change Plan' }).click();
  await page.getByRole('button', { name: 'Upgrades' }).click();
  await expect(enterprise).toBeVisible();
  await expect(basic).toHaveCount(0);
  await expect(pro).toHaveCount(0);
  await page.getByRole('button', { name: 'Downgrades' }).click();
  await expect(basic).toBeVisible();
  await expect(enterprise).toHaveCount(0);
  await snapBoth(page, 'billing-plans-pro');

  // On Enterprise, nothing is higher: the Upgrades filter is empty with its text.
  await page.getByRole('button', { name: 'All Plans' }).click();
  await enterprise.getByRole('button', { name: 'Upgrade: Enterprise' }).click();
  await expect(summary.getByTestId('billing-plan-title')).toHaveText('Enterprise Plan');
  await summary.getByRole('button', { name: 'Change Plan' }).click();
  await page.getByRole('button', { name: 'Upgrades' }).click();
  await expect(page.getByTestId('billing-plans-empty')).toHaveText("You're already on our highest tier plan!");
  await page.getByRole('button', { name: 'Downgrades' }).click();
  await expect(basic).toBeVisible();

  // A failing request: the destructive toast with the spec's lead and the status text.
  await page.route(/\/subscription\/[^/]+\/upgrade$/, (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{}' }), { times: 1 });
  await basic.getByRole('button', { name: 'Downgrade: Basic' }).click();
  await expect(toastSaying(page, 'Error', 'Failed to update subscription: Internal Server Error')).toBeVisible();
  await expect(summary.getByTestId('billing-plan-title')).toHaveText('Enterprise Plan');

  // Cancel: a confirmation, 'Processing...' while it runs, the toast, then 'Ends on', 'Access until' and the status.
  await page.getByRole('button', { name: 'Back to My Subscription' }).click();
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    /\/subscription\/[^/]+\/cancel$/,
    async (route) => {
      await held;
      await route.fallback();
    },
    { times: 1 },
  );
  // Cancel Subscription asks first, naming the plan and the day access ends; keeping it changes nothing.
  await closeToasts(page);
  await summary.getByRole('button', { name: 'Cancel Subscription' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Cancel subscription?' });
  await expect(confirm).toContainText(`You keep access until ${PERIOD_END_TEXT}. After that the plan ends and you will not be charged again.`);
  await expect(confirm).toContainText('Enterprise Plan');
  await snapBoth(page, 'billing-cancel-confirm');
  await confirm.getByRole('button', { name: 'Keep Subscription' }).click();
  await expect(confirm).toBeHidden();
  await expect(summary.getByRole('button', { name: 'Cancel Subscription' })).toBeEnabled();
  await expect(summary.getByTestId('billing-status')).toHaveText('Active subscription');
  await summary.getByRole('button', { name: 'Cancel Subscription' }).click();
  await confirm.getByRole('button', { name: 'Cancel Subscription' }).click();
  await expect(confirm).toBeHidden();
  await expect(summary.getByRole('button', { name: 'Processing...' })).toBeDisabled();
  await expect(summary.getByRole('button', { name: 'Change Plan' })).toBeDisabled();
  release();
  await expect(toastSaying(page, 'Subscription Cancelled', 'Your subscription has been cancelled. You will still have access until the end of your billing period.')).toBeVisible();
  await expect(summary.getByTestId('billing-period-line')).toHaveText(`Ends on ${PERIOD_END_TEXT}`);
  await expect(summary.getByTestId('billing-cycle')).toHaveText(`Access until: ${PERIOD_END_TEXT}`);
  await expect(summary.getByTestId('billing-status')).toHaveText(`Cancelled subscription, ends on ${PERIOD_END_TEXT}`);
  await expect(summary.getByRole('button', { name: 'Cancel Subscription' })).toHaveCount(0);
  await closeToasts(page);
  await expectNoSeriousA11yViolations(page);
  await snapBoth(page, 'billing-cancelled');

  // Compare Plans: the three tiers side by side with their limits; Contact Support goes to the Support page.
  await page.getByRole('tab', { name: 'Compare Plans' }).click();
  const compare = page.getByTestId('billing-compare');
  await expect(compare.getByRole('columnheader', { name: /Basic/ })).toBeVisible();
  await expect(compare.getByRole('row', { name: /^Projects / })).toContainText('2');
  await expect(compare.getByRole('row', { name: /^API access / })).toContainText('API access (1,000 requests/day)');
  await expect(compare.getByRole('row', { name: /^Report formats / })).toContainText('HTML, PDF, CSV, JSON and SARIF');
  // 'Monthly Monitoring', as the Basic card says; and how the website's Lifetime Pro and the app's Enterprise relate.
  await expect(
    compare
      .getByRole('row', { name: /^Monitoring / })
      .getByRole('cell')
      .first(),
  ).toHaveText('Monthly scheduled re-scans');
  await expect(page.getByTestId('plan-mapping')).toContainText('Lifetime Pro is the Pro plan paid once');
  await expect(compare.getByRole('row', { name: /^Price / })).toContainText('$49/month');
  await closeToasts(page);
  await expectNoSeriousA11yViolations(page);
  await snapBoth(page, 'billing-compare');
  await page.getByRole('tab', { name: 'My Subscription' }).click();
  await page.getByRole('link', { name: 'Contact Support' }).click();
  await expect(page).toHaveURL(/\/dashboard\/support$/);
});
