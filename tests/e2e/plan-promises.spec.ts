import { expect, test } from '@playwright/test';
import { MARKETING_PLANS, marketingFeatures } from '../../common/marketing';
import { PLAN_LIMITS, PLAN_MAPPING_TEXT } from '../../common/plans';
import { checkCount } from '../../scripts/check-count.mjs';
import { expectNoSeriousA11yViolations, openReady, signedIn, snap, snapBoth, withCookieChoice } from './support';

// One set of plan promises, as a visitor and a Basic user see them: the pricing section lists what the enforced
// limits allow (Basic: HTML reports, monthly schedules) and says how Lifetime Pro and Enterprise relate; the scenario
// proposal dialog says how many more scenarios fit and lets no more be checked. The unit test
// renderer/src/features/billing/plan-promises.test.ts holds every line to the limits; this checks what is drawn.

test('pricing: each plan lists what its limits allow, and how Lifetime Pro and Enterprise relate', async ({ page }) => {
  await withCookieChoice(page);
  await openReady(page, '/');
  const pricing = page.locator('#pricing');
  await pricing.scrollIntoViewIfNeeded();
  // The number of checks is the engine registry's, read when the app was built.
  await expect(pricing).toContainText(`Every plan runs all ${checkCount(process.cwd())} security checks.`);
  await expect(page.getByRole('main')).not.toContainText('47 security checks');
  for (const plan of MARKETING_PLANS) {
    const card = page.getByTestId(`plan-${plan.id}`);
    const lines = marketingFeatures(plan);
    await expect(card.getByRole('listitem')).toHaveCount(lines.length);
    for (const line of lines) await expect(card.locator(`li[data-included="${line.included}"]`).filter({ hasText: line.label }).first()).toBeVisible();
  }
  const basic = page.getByTestId('plan-basic');
  await expect(basic.locator('li[data-claim="reports"]')).toHaveText('HTML reports');
  await expect(basic.locator('li[data-claim="monitoring"]')).toHaveText('Monthly scheduled re-scans');
  await expect(basic.locator('li[data-claim="seats"]')).toHaveText('Single user');
  // Basic claims no format beyond the one it allows.
  await expect(basic).not.toContainText(/PDF|CSV|JSON|SARIF/);
  await expect(page.getByTestId('plan-pro').locator('li[data-claim="reports"]')).toHaveText('HTML, PDF, CSV, JSON and SARIF reports');
  await expect(page.getByTestId('plan-lifetime').locator('li[data-claim="seats"]')).toHaveText('Up to 10 users');
  await expect(pricing.getByTestId('plan-mapping')).toContainText(PLAN_MAPPING_TEXT);
  await expectNoSeriousA11yViolations(page);

  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await expect.poll(() => page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
    // The sticky top bar would be drawn over the section where the element shot scrolls to: hidden for the shot.
    await pricing.screenshot({ path: `test-results/screens/plan-promises-pricing-${width}.png`, animations: 'disabled', style: 'header { visibility: hidden; }' });
  }
});

test('scenario proposals: a Basic user is told how many more fit, and cannot check more', async ({ page }) => {
  test.setTimeout(120_000);
  await signedIn(page);
  await page.getByRole('button', { name: 'New Project', exact: true }).click();
  const create = page.getByRole('dialog', { name: 'Create New Project' });
  await create.getByLabel('Project Name').fill('Proposal shop');
  await create.getByLabel('Website URL').fill('https://proposals.example');
  await create.getByRole('button', { name: 'Create Project', exact: true }).click();
  await expect(create).toBeHidden();

  // The shared server counts its accounts as Enterprise: GET /plan_limits is answered as it is on a Basic account
  // holding one of its two scenarios (server/billing/plan-limits.test.ts checks the server's side), and the
  // proposals as POST /scenarios/generate answers them (its own tests cover how they are made).
  const basic = {
    tier: 'basic',
    subscribed: true,
    limits: { projects: 2, scenarios: PLAN_LIMITS.basic.scenarios, api_plan: null, report_formats: ['html'], monitor_frequencies: ['off', 'monthly'], seats: 1 },
    used: { projects: 1, scenarios: 1 },
  };
  await page.route(/\/plan_limits$/, (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(basic) }));
  const proposal = (n: number, what: string) => ({
    website: 'https://proposals.example/',
    actions: JSON.stringify([
      { type: 'goto', url: `/${what.toLowerCase()}` },
      { type: 'expect_title', text: what },
    ]),
    summarized_actions: `${what} page opens (${n})`,
  });
  const proposals = [proposal(1, 'Home'), proposal(2, 'About'), proposal(3, 'Pricing'), proposal(4, 'Contact')];
  await page.route(/\/scenarios\/generate$/, (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ proposals }) }));

  await openReady(page, '/dashboard/scans');
  await page.getByRole('button', { name: 'Generate New Test Scenario' }).click();
  const dialog = page.getByRole('dialog', { name: 'Generate New Test Scenario' });
  await dialog.getByRole('button', { name: 'Generate' }).click();
  await expect(dialog.getByTestId('proposal')).toHaveCount(4);

  // Said before it bites, with the upgrade beside it: one more fits, so one is checked and the rest wait greyed.
  const notice = dialog.getByTestId('plan-limit');
  await expect(notice).toContainText('Your Basic plan includes 2 AI browser scenarios; 1 saved, so 1 more fits. Select up to 1.');
  await expect(notice.getByRole('link', { name: 'Upgrade plan' })).toHaveAttribute('href', '/dashboard/billing');
  const boxes = dialog.getByRole('checkbox');
  await expect(boxes.nth(0)).toBeChecked();
  for (const index of [1, 2, 3]) {
    await expect(boxes.nth(index)).not.toBeChecked();
    await expect(boxes.nth(index)).toBeDisabled();
  }
  await expect(dialog.getByRole('button', { name: 'Save selected (1)' })).toBeEnabled();
  // Another choice: uncheck the first, and the others can be checked, one of them.
  await dialog.getByText('Home page opens (1)').click();
  await expect(dialog.getByRole('button', { name: 'Save selected (0)' })).toBeDisabled();
  await dialog.getByText('Pricing page opens (3)').click();
  await expect(boxes.nth(2)).toBeChecked();
  await expect(boxes.nth(0)).toBeDisabled();
  await expect(dialog.getByRole('button', { name: 'Save selected (1)' })).toBeEnabled();
  await expectNoSeriousA11yViolations(page);
  await snapBoth(page, 'plan-promises-scenario-dialog');
  await snap(page, 'plan-promises-scenario-dialog-after');
});
