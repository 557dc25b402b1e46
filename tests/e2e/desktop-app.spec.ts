import { expect, test, type Page } from '@playwright/test';
import { closeToasts, snapBoth, signedIn, openReady, reloadReady } from './support';

/**
 * The renderer's desktop-app features in Chromium: the Electron runtime can't be downloaded here, so the page
 * gets a stand-in for the preload's `window.vibeeval` whose "main process" is this file. It answers as main's
 * handlers do (electron/app-settings-ipc.ts, tested there) and records the calls; `__fakeMain.emit` plays an event
 * from main. State lives in sessionStorage so it survives the page's reloads.
 */
/** The page's globals this file touches (the tests' tsconfig has no DOM types). */
interface PageGlobals {
  sessionStorage: { getItem(key: string): string | null; setItem(key: string, value: string): void; removeItem(key: string): void };
  location: { origin: string };
  __fakeMain: { emit(channel: unknown, payload: unknown): void };
  vibeeval: unknown;
}

function installFakeDesktop() {
  // Runs in the page, serialized by Playwright: everything it uses is defined inside.
  const { sessionStorage, location } = globalThis as unknown as PageGlobals;
  const read = (key: string): unknown => JSON.parse(sessionStorage.getItem(`fake-main:${key}`) ?? 'null');
  const write = (key: string, value: unknown) => sessionStorage.setItem(`fake-main:${key}`, JSON.stringify(value));
  const record = (call: unknown[]) => write('calls', [...((read('calls') as unknown[] | null) ?? []), call]);
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const w = globalThis as unknown as PageGlobals;
  w.__fakeMain = { emit: (channel: string, payload: unknown) => listeners.get(channel)?.forEach((listener) => listener(payload)) };
  w.vibeeval = {
    kind: 'desktop',
    app: {
      info: async () => ({ serverOrigin: location.origin, version: '0.0.0', platform: 'linux' }),
      relaunch: async () => record(['relaunch']),
      takeNotices: async () => {
        if (read('noticesTaken')) return [];
        write('noticesTaken', true);
        return [{ kind: 'keychain-fallback', title: 'System keychain unavailable', message: 'Your session is kept in encrypted files instead.' }];
      },
    },
    workspace: { select: async (id: string | null) => record(['workspace', id]) },
    settings: {
      get: async () => ({
        desktopNotifications: (read('notifications') as boolean | null) ?? true,
        server: read('server') ?? { mode: 'embedded' },
        activeServerOrigin: location.origin,
        // This run uses the embedded server (as main compares, electron/app-settings-ipc.ts).
        restartRequired: (read('server') as { mode: string } | null)?.mode === 'team',
      }),
      setNotifications: async (enabled: boolean) => {
        record(['setNotifications', enabled]);
        write('notifications', enabled);
      },
      setServer: async (choice: { mode: string; url?: string }) => {
        record(['setServer', choice]);
        if (choice.url?.includes('down')) return { ok: false, message: 'The team server could not be reached. Check the address and your network.' };
        write('server', choice);
        return { ok: true, restartRequired: true };
      },
    },
    vault: {
      getItem: async (key: string) => sessionStorage.getItem(`vault:${key}`),
      setItem: async (key: string, value: string) => sessionStorage.setItem(`vault:${key}`, value),
      removeItem: async (key: string) => sessionStorage.removeItem(`vault:${key}`),
    },
    shell: { openExternal: async () => true },
    reports: { open: async () => true },
    events: {
      subscribe(channel: string, listener: (payload: unknown) => void) {
        const set = listeners.get(channel) ?? new Set();
        listeners.set(channel, set.add(listener));
        return () => void set.delete(listener);
      },
    },
  };
}

const calls = (page: Page) => page.evaluate(() => JSON.parse((globalThis as unknown as PageGlobals).sessionStorage.getItem('fake-main:calls') ?? '[]') as unknown[]);
const emit = (page: Page, channel: string, payload: unknown) => page.evaluate(([c, p]) => (globalThis as unknown as PageGlobals).__fakeMain.emit(c, p), [channel, payload]);

test('desktop app: boot notice, menu commands, and the Desktop app section of Preferences', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.addInitScript(installFakeDesktop);

  // The notice main kept while the app booted, shown once (not again on the pages loaded after).
  // A plain load: the notice is a toast shown as the app starts, which waiting for the app first could outlast.
  await page.goto('/');
  await expect(page.getByText('System keychain unavailable')).toBeVisible({ timeout: 30_000 });
  await closeToasts(page);
  await signedIn(page);

  // Menu commands: Run Test with no project showing; New Project on the list opens its dialog.
  await emit(page, 'vibeeval:event:menu', { command: 'run-test' });
  await expect(page.getByText('Open a project first')).toBeVisible();
  await closeToasts(page);
  await emit(page, 'vibeeval:event:menu', { command: 'new-project' });
  const dialog = page.getByRole('dialog', { name: 'Create New Project' });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // Elsewhere, New Project opens the list with the dialog, once (a reload does not open it again).
  await openReady(page, '/dashboard/preferences');
  await expect(page.getByRole('heading', { name: 'Preferences', level: 1 })).toBeVisible();
  await expect(page.getByText('System keychain unavailable')).toHaveCount(0);
  await emit(page, 'vibeeval:event:menu', { command: 'new-project' });
  await expect(page).toHaveURL(/\/dashboard\/projects$/);
  // The list's page loads first (a lazy route): slow on a busy machine.
  await expect(dialog).toBeVisible({ timeout: 15_000 });
  await reloadReady(page);
  await expect(page.getByTestId('project-grid')).toBeVisible();
  await expect(dialog).toHaveCount(0);

  // The section.
  await openReady(page, '/dashboard/preferences');
  const section = page.getByTestId('desktop-settings');
  await expect(section.getByRole('heading', { name: 'Desktop app' })).toBeVisible();
  await expect(section.getByText(`In use now:`)).toBeVisible();
  await snapBoth(page, 'desktop-settings');

  const notifications = section.getByRole('checkbox', { name: 'Desktop notifications' });
  await expect(notifications).toBeChecked();
  await section.getByText('Desktop notifications', { exact: true }).click();
  await expect(notifications).not.toBeChecked();
  expect(await calls(page)).toContainEqual(['setNotifications', false]);

  const save = section.getByRole('button', { name: 'Save' });
  await expect(save).toBeDisabled();
  await section.getByText('Team server', { exact: true }).click();
  const url = section.getByLabel('Team server URL');
  await url.fill('team.example.com');
  await save.click();
  await expect(section.getByText('Enter an http(s) address without a path, e.g. https://vibeeval.example.com')).toBeVisible();
  await url.fill('https://down.example.com');
  await save.click();
  await expect(section.getByText('The team server could not be reached. Check the address and your network.')).toBeVisible();
  await expect(section.getByTestId('restart-notice')).toHaveCount(0);
  await snapBoth(page, 'desktop-settings-team-refused');

  await url.fill('https://team.example.com');
  await save.click();
  await expect(section.getByTestId('restart-notice')).toBeVisible();
  expect(await calls(page)).toContainEqual(['setServer', { mode: 'team', url: 'https://team.example.com' }]);
  await snapBoth(page, 'desktop-settings-restart');
  await section.getByRole('button', { name: 'Restart vibeeval' }).click();
  await expect.poll(() => calls(page)).toContainEqual(['relaunch']);

  // Read back after a reload: the saved team server, still waiting for a restart.
  await reloadReady(page);
  await expect(section.getByLabel('Team server URL')).toHaveValue('https://team.example.com');
  await expect(section.getByRole('checkbox', { name: 'Desktop notifications' })).not.toBeChecked();
  await expect(section.getByTestId('restart-notice')).toBeVisible();
});

test('web: Preferences has no Desktop app section', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signedIn(page);
  await openReady(page, '/dashboard/preferences');
  await expect(page.getByRole('heading', { name: 'Preferences', level: 1 })).toBeVisible();
  await expect(page.getByTestId('desktop-settings')).toHaveCount(0);
  await expect(page.getByText('Desktop app')).toHaveCount(0);
});
