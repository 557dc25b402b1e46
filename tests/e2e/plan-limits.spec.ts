import { expect, test, type Page } from '@playwright/test';
import { PLAN_LIMIT_TEXTS } from '../../common/plan-limits';
import { expectNoSeriousA11yViolations, signedIn, snapBoth, snapWidths, openReady } from './support';

// The upgrade prompt where a plan refuses an action. The shared server runs with no plan limits (its accounts count
// as Enterprise), so the refusals are answered here with page.route, exactly as the server answers them on a Basic
// account (server/billing/plan-limits.test.ts checks the server's side): status 403 and {detail, plan_limit, tier}.

const refusal = (plan_limit: string, detail: string) => ({
  status: 403,
  contentType: 'application/json; charset=utf-8',
  body: JSON.stringify({ detail, plan_limit, tier: 'basic' }),
});

async function refuse(page: Page, method: string, path: RegExp, plan_limit: string, detail: string) {
  await page.route(path, (route) => (route.request().method() === method ? route.fulfill(refusal(plan_limit, detail)) : route.fallback()));
}

test('plan limits: project creation and API keys show the refusal and an Upgrade plan link to Plan & Billing', async ({ page }) => {
  test.setTimeout(120_000);
  await signedIn(page);

  // Project creation on a Basic account holding its two projects.
  const projectsDetail = PLAN_LIMIT_TEXTS.projects('basic', 2);
  await refuse(page, 'POST', /\/project$/, 'projects', projectsDetail);
  await page.getByRole('button', { name: 'New Project', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Create New Project' });
  await dialog.getByLabel('Project Name').fill('Third shop');
  await dialog.getByLabel('Description').fill('One project too many for Basic');
  await dialog.getByLabel('Website URL').fill('https://third.example');
  await dialog.getByRole('button', { name: 'Create Project', exact: true }).click();
  const prompt = dialog.getByTestId('plan-limit');
  await expect(prompt).toContainText(projectsDetail);
  await expect(prompt).toHaveAttribute('data-plan-limit', 'projects');
  await expect(prompt.getByRole('link', { name: 'Upgrade plan' })).toHaveAttribute('href', '/dashboard/billing');
  // The error toast is left to expire rather than closed: a click outside the dialog would close the dialog too.
  await expect(page.getByTestId('toast')).toHaveCount(0, { timeout: 20_000 });
  await expectNoSeriousA11yViolations(page);
  await snapWidths(page, 'plan-limit-project');
  await page.setViewportSize({ width: 1280, height: 800 });
  await prompt.getByRole('link', { name: 'Upgrade plan' }).click();
  await expect(page).toHaveURL(/\/dashboard\/billing$/);
  await expect(page.getByRole('heading', { name: 'Plan & Billing', level: 1 })).toBeVisible();

  // The API screen of a plan without API access: 'No API access' with the prompt; creating a key is refused.
  await page.route(/\/api_usage$/, (route) =>
    route.fulfill({
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify({ plan: null, used_today: 0, limit: null, resets_at: new Date(Date.now() + 3_600_000).toISOString() }),
    }),
  );
  const apiDetail = PLAN_LIMIT_TEXTS.api('basic');
  await refuse(page, 'POST', /\/api_keys$/, 'api', apiDetail);
  await openReady(page, '/dashboard/api');
  await expect(page.getByRole('heading', { name: 'API', level: 1 })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('api-plan')).toHaveText('No API access', { timeout: 30_000 });
  await expect(page.getByTestId('api-usage').getByTestId('plan-limit')).toContainText('Upgrade to Pro to use API keys');
  await expect(page.getByTestId('api-usage').getByRole('link', { name: 'Upgrade plan' })).toHaveAttribute('href', '/dashboard/billing');
  await snapBoth(page, 'plan-limit-api-overview');
  await page.getByRole('tab', { name: 'API Keys' }).click();
  await page.getByLabel('Key name').fill('CI deploys');
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(page.locator('[data-plan-limit="api"]')).toContainText(apiDetail);
  await expect(page.getByTestId('new-key-dialog')).toHaveCount(0);
  await snapBoth(page, 'plan-limit-api-key');
  await expectNoSeriousA11yViolations(page);
});
