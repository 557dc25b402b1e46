import { expect, test, type Page } from '@playwright/test';
import { DASHBOARD_PRERENDERED_ROUTES } from '../../common/prerender';
import { closeToasts, openReady, signedIn, snapBoth, watchConsole, withCookieChoice } from './support';

// What a user's devtools show on the signed-in screens: no console error (a React hydration error such as #418, an
// uncaught exception) and no failed request (a 404 for a project just deleted, a 410 for an invitation just used),
// on every dashboard page, on a project's page and through a delete. A permanent guard: a new screen that logs an
// error or asks the server for something gone fails here.

// Every dashboard page the prerender knows (common/prerender.ts), and the API page's other tabs.
const DASHBOARD_PAGES = [...DASHBOARD_PRERENDERED_ROUTES, '/dashboard/api?tab=keys', '/dashboard/api?tab=docs'];

/** Waits until nothing is loading on screen (spinners, skeletons, busy regions) and the network is quiet. */
async function settled(page: Page) {
  await expect(page.locator('[aria-busy="true"], [data-testid$="-skeleton"]')).toHaveCount(0, { timeout: 30_000 });
  await page.waitForLoadState('networkidle').catch(() => undefined);
}

test('the signed-in screens log no console error and no failed request, through a project and its deletion', async ({ page }) => {
  test.setTimeout(300_000);
  await withCookieChoice(page);
  const trouble = watchConsole(page);
  await signedIn(page);

  // Each page loaded fresh (a full load is where a hydration error such as #418 shows). Every page's content is
  // as wide as every other's (the heading's column), at a wide and a laptop screen.
  for (const width of [1680, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    const widths = new Map<string, number>();
    for (const path of DASHBOARD_PAGES) {
      await openReady(page, path);
      await settled(page);
      expect(trouble, `after opening ${path}`).toEqual([]);
      // Run in the page (DOM types are not in the tests' TypeScript setup, hence the string): the width of the
      // page's outermost block holding its heading.
      const width = await page.evaluate<number | null>(`(() => {
        const heading = document.querySelector('main h1');
        return heading ? Math.round((heading.closest('main > div > *') || heading).getBoundingClientRect().width) : null;
      })()`);
      expect(width, `the heading of ${path}`).toBeGreaterThan(0);
      widths.set(path, width!);
    }
    expect(new Set(widths.values()), `content widths at ${width} px: ${JSON.stringify(Object.fromEntries(widths))}`).toHaveProperty('size', 1);
  }
  await page.setViewportSize({ width: 1280, height: 800 });

  // A project: its card, its page with each tab, then deleted; the projects list after it asks for nothing gone.
  await openReady(page, '/dashboard/projects');
  await page.getByRole('button', { name: 'New Project', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Create New Project' });
  await dialog.getByLabel('Project Name').fill('Console check');
  await dialog.getByLabel('Website URL').fill('https://console-check.example.test:41235/shop/987654321');
  await dialog.getByRole('button', { name: 'Create Project', exact: true }).click();
  await expect(page.getByTestId('project-card')).toHaveCount(1);
  await page.getByTestId('project-card').getByRole('link').click();
  await expect(page).toHaveURL(/\/dashboard\/projects\/[0-9a-f-]{36}$/);
  for (const tab of ['Overview', 'Activity', 'Settings']) {
    await page.getByRole('tab', { name: tab }).click();
    await settled(page);
  }
  await reloadAndSettle(page);
  expect(trouble, 'on the project page').toEqual([]);

  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page.getByText('Project deleted')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/projects$/);
  await settled(page);
  await closeToasts(page);
  expect(trouble, 'after deleting the project').toEqual([]);
});

async function reloadAndSettle(page: Page) {
  await page.reload();
  await expect(page.locator('html[data-app-ready="true"]')).toHaveCount(1, { timeout: 30_000 });
  await settled(page);
}

test('a project card wraps a long address between its parts, never inside a number', async ({ page }) => {
  test.setTimeout(180_000);
  await withCookieChoice(page);
  await signedIn(page);
  // Made through the API without instructions (as /v1/scans and the MCP tools make them): the card's title is the URL.
  // No hyphen or space: before the fix the only way to wrap it was inside a number.
  const url = 'https://app.example.test:41235/987654321098/123456789012345';
  const status = await page.evaluate<number>(`(async () => {
    const raw = window.localStorage.getItem('vibeeval-auth-token');
    const token = raw ? JSON.parse(raw).access_token : '';
    const headers = { authorization: 'Bearer ' + token, 'content-type': 'application/json' };
    return (await fetch('/project', { method: 'POST', headers, body: JSON.stringify({ name: 'Long address', url: ${JSON.stringify(url)} }) })).status;
  })()`);
  expect(status).toBe(201);
  await page.reload();
  const card = page.getByTestId('project-card');
  await expect(card).toHaveCount(1);
  await page.setViewportSize({ width: 375, height: 812 });
  const title = card.getByRole('link');
  // The address is shown whole (the break opportunities add no characters)...
  await expect(title).toHaveText(url);
  // ...and every line of it ends at a separator: no line ends in a digit followed by a digit on the next.
  // The text of each rendered line, read from where each character is drawn (run in the page, hence the string).
  const lines = await page.evaluate<string[]>(`(() => {
    const element = document.querySelector('[data-testid="project-card"] a');
    const range = document.createRange();
    const byTop = new Map();
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const value = node.textContent || '';
      for (let i = 0; i < value.length; i++) {
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const top = Math.round(range.getBoundingClientRect().top);
        byTop.set(top, (byTop.get(top) || '') + value[i]);
      }
    }
    return [...byTop.entries()].sort((a, b) => a[0] - b[0]).map((entry) => entry[1]);
  })()`);
  expect(lines.length).toBeGreaterThan(1);
  for (let i = 1; i < lines.length; i++) expect(`${lines[i - 1]!.slice(-1)}|${lines[i]![0]}`).not.toMatch(/\d\|\d/);
  await page.setViewportSize({ width: 1280, height: 800 });
  await snapBoth(page, 'project-card-long-url');
});
