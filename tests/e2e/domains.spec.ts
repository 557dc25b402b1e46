import { expect, test, type Page } from '@playwright/test';
import { closeToasts, openReady, reloadReady, signedIn, snapBoth, snapWidths } from './support';

// The Domains section of the Members page (add with validation, the token and both ways to prove it, a failed
// Verify with its reason, Remove), and the desktop app's permission question before a project's first test. The
// shared e2e server is a workstation's (private addresses allowed), so its domains are under .invalid (RFC 2606):
// both proofs fail at once on every machine.

/** The page's globals this file touches (the tests' tsconfig has no DOM types). */
interface PageGlobals {
  sessionStorage: { getItem(key: string): string | null; setItem(key: string, value: string): void; removeItem(key: string): void };
  location: { origin: string };
  vibeeval: unknown;
}

/** The smallest stand-in for the desktop preload's bridge: enough for the app to run as the desktop app. */
function installFakeDesktop() {
  const { sessionStorage, location } = globalThis as unknown as PageGlobals;
  (globalThis as unknown as PageGlobals).vibeeval = {
    kind: 'desktop',
    app: { info: async () => ({ serverOrigin: location.origin, version: '0.0.0', platform: 'linux' }), relaunch: async () => undefined, takeNotices: async () => [] },
    workspace: { select: async () => undefined },
    settings: {
      get: async () => ({ desktopNotifications: true, server: { mode: 'embedded' }, activeServerOrigin: location.origin, restartRequired: false }),
      setNotifications: async () => undefined,
      setServer: async () => ({ ok: true, restartRequired: false }),
    },
    vault: {
      getItem: async (key: string) => sessionStorage.getItem(`vault:${key}`),
      setItem: async (key: string, value: string) => sessionStorage.setItem(`vault:${key}`, value),
      removeItem: async (key: string) => sessionStorage.removeItem(`vault:${key}`),
    },
    shell: { openExternal: async () => true },
    reports: { open: async () => true },
    events: { subscribe: () => () => undefined },
  };
}

test('domains: add with validation, the token and both proofs, a failed Verify with its reason, remove', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await signedIn(page);
  await openReady(page, '/dashboard/members');
  const form = page.getByRole('region', { name: 'Domains' });
  await expect(form.getByRole('heading', { name: 'Domains', exact: true })).toBeVisible();
  await expect(form.getByText('No domains yet')).toBeVisible();

  await form.getByLabel('Domain', { exact: true }).fill('https://shop.invalid/path');
  await form.getByRole('button', { name: 'Add domain' }).click();
  await expect(form.getByTestId('domain-error')).toHaveText('Enter a domain name such as example.com, without https:// or a path');

  await form.getByLabel('Domain', { exact: true }).fill('Shop.Invalid');
  await form.getByRole('button', { name: 'Add domain' }).click();
  await expect(page.getByText('Domain added')).toBeVisible();
  const row = form.getByTestId('domain-row');
  await expect(row).toHaveCount(1);
  await expect(row.getByText('shop.invalid', { exact: true })).toBeVisible();
  await expect(row.getByTestId('domain-state')).toHaveText('Not verified yet');
  await expect(row.getByTestId('domain-http-url')).toHaveText('https://shop.invalid/.well-known/vibeeval-verification.txt');
  const token = (await row.getByTestId('domain-token').textContent())!.trim();
  expect(token).toMatch(/^[0-9a-f]{32}$/);
  await expect(row.getByTestId('domain-txt')).toHaveText(`vibeeval-verification=${token}`);
  await expect(row.getByRole('button', { name: 'Copy the TXT record for shop.invalid' })).toBeVisible();

  // The same domain again: the server's reason.
  await form.getByLabel('Domain', { exact: true }).fill('shop.invalid');
  await form.getByRole('button', { name: 'Add domain' }).click();
  await expect(page.getByText('This domain is already in the list')).toBeVisible();
  await closeToasts(page);
  await snapBoth(page, 'domains-added');

  await row.getByRole('button', { name: 'Verify' }).click();
  await expect(row.getByTestId('domain-state')).toHaveText('Not verified');
  await expect(row.getByTestId('domain-error-reason')).toContainText('has no TXT record vibeeval-verification=');
  await expect(row.getByTestId('domain-error-reason')).toContainText('https://shop.invalid/.well-known/vibeeval-verification.txt could not be fetched');
  await snapBoth(page, 'domains-verify-failed');

  await row.getByRole('button', { name: 'Remove domain shop.invalid' }).click();
  const confirm = page.getByRole('alertdialog').or(page.getByRole('dialog'));
  await confirm.getByRole('button', { name: 'Remove', exact: true }).click();
  await expect(page.getByText('Domain removed')).toBeVisible();
  await expect(form.getByText('No domains yet')).toBeVisible();
});

async function newProject(page: Page, url: string) {
  await page.getByRole('button', { name: 'New Project', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Create New Project' });
  await dialog.getByLabel('Project Name').fill('Permission shop');
  await dialog.getByLabel('Website URL').fill(url);
  await dialog.getByRole('button', { name: 'Create Project', exact: true }).click();
  await expect(dialog).toBeHidden();
  await page.getByTestId('project-card').getByRole('link', { name: 'Permission shop' }).click();
  await expect(page.getByRole('heading', { name: 'Permission shop', level: 1 })).toBeVisible();
}

test('desktop app: Run Test asks once per project for permission to test the site', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.addInitScript(installFakeDesktop);
  await signedIn(page);
  // Nothing listens there: the scan this starts ends at once; the question comes before it either way.
  await newProject(page, 'http://127.0.0.1:9/');

  // Toasts first: closing one is a click outside the dialog, which would close it.
  await closeToasts(page);
  const runTest = page.getByRole('button', { name: 'Run Test', exact: true });
  await runTest.click();
  const question = page.getByRole('dialog', { name: 'Do you have permission to test this site?' });
  await expect(question).toBeVisible();
  await expect(question.getByTestId('permission-url')).toHaveText('http://127.0.0.1:9/');
  await snapWidths(page, 'permission-question');
  // Cancel: no test starts.
  await question.getByRole('button', { name: 'Cancel' }).click();
  await expect(question).toBeHidden();
  await expect(page.getByText('No scan yet.')).toBeVisible();

  await runTest.click();
  await question.getByRole('button', { name: 'I have permission, run the test' }).click();
  await expect(page.getByText('Test initiated')).toBeVisible();
  await expect(question).toBeHidden();
  await closeToasts(page);

  // Asked once: after a reload (the answer is the server's), Run Test starts at once.
  await reloadReady(page);
  await expect(runTest).toBeEnabled({ timeout: 30_000 });
  await runTest.click();
  await expect(page.getByText('Test initiated')).toBeVisible();
  await expect(question).toHaveCount(0);
});
