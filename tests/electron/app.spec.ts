import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { _electron as electron, expect, test, type ElectronApplication } from '@playwright/test';
import type { DesktopBridge } from '../../preload/bridge';

/** What the tests read in the page (this project's types have no DOM: the page's globals, typed here). */
type PageGlobals = { vibeeval?: DesktopBridge; require?: unknown; process?: unknown; open(url: string): unknown; location: { href: string } };

// The desktop app, launched for real: where no Electron runtime (or no display) exists these tests are
// skipped with the reason printed. On Linux without a display: xvfb-run -a npx playwright test tests/electron
const root = resolve(__dirname, '..', '..');

/** The Electron executable, or why these tests can't run here. */
function desktopRuntime(): { executable: string } | { skip: string } {
  let executable: unknown;
  try {
    executable = createRequire(join(root, 'package.json'))('electron');
  } catch {
    return { skip: 'the Electron binary is missing (node_modules/electron was never downloaded: npm install could not fetch it)' };
  }
  if (typeof executable !== 'string' || !existsSync(executable)) return { skip: `the Electron binary is missing (${String(executable)})` };
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return { skip: 'no display (DISPLAY/WAYLAND_DISPLAY unset): run under xvfb-run -a' };
  }
  if (!existsSync(join(root, 'out', 'main', 'index.js'))) return { skip: 'the app is not built (run npm run build)' };
  return { executable };
}

const runtime = desktopRuntime();
if ('skip' in runtime) console.log(`tests/electron: desktop tests skipped: ${runtime.skip}`);

test.describe('desktop app', () => {
  test.skip('skip' in runtime, 'skip' in runtime ? runtime.skip : '');

  let app: ElectronApplication;
  let scratch: string;

  test.beforeAll(async () => {
    if (!('executable' in runtime)) return;
    scratch = mkdtempSync(join(tmpdir(), 'vibeeval-electron-'));
    app = await electron.launch({
      executablePath: runtime.executable,
      // Chromium refuses its sandbox as root (CI containers); the renderer stays `sandbox: true` regardless.
      args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), root],
      env: {
        ...process.env,
        // Its own user-data folder (Linux: ~/.config/vibeeval), so a running vibeeval's single-instance
        // lock and window state are not touched, and its own server data dir.
        XDG_CONFIG_HOME: join(scratch, 'config'),
        VIBEEVAL_DATA_DIR: join(scratch, 'data'),
        DATABASE_URL: '',
        SMTP_URL: '',
        LOG_LEVEL: 'warn',
      },
      timeout: 120_000,
    });
  });

  test.afterAll(async () => {
    await app?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  test('opens the window on app://vibeeval with the bridge and without Node', async () => {
    const page = await app.firstWindow({ timeout: 120_000 });
    await page.waitForLoadState('domcontentloaded');
    expect(page.url()).toMatch(/^app:\/\/vibeeval\//);

    expect(await page.evaluate(() => typeof (globalThis as unknown as PageGlobals).require)).toBe('undefined');
    expect(await page.evaluate(() => typeof (globalThis as unknown as PageGlobals).process)).toBe('undefined');
    expect(await page.evaluate(() => typeof (globalThis as unknown as PageGlobals).vibeeval)).toBe('object');
    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).vibeeval?.kind)).toBe('desktop');

    const info = await page.evaluate(() => (globalThis as unknown as PageGlobals).vibeeval?.app.info());
    expect(info?.serverOrigin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  test('keeps the window on the app and refuses window.open', async () => {
    const page = await app.firstWindow();
    const before = page.url();
    // file: URLs: refused without handing anything to the system browser (http(s) would open there).
    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).open('file:///etc/hostname') === null)).toBe(true);
    await page.evaluate(() => {
      (globalThis as unknown as PageGlobals).location.href = 'file:///etc/hostname';
    });
    await page.waitForTimeout(500);
    expect(page.url()).toBe(before);
    expect(app.windows()).toHaveLength(1);
  });

  test('shows a site in the live browser view, in a session of its own, and closes it', async () => {
    const site = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<title>Live site</title><h1>Live site</h1>'));
    await new Promise<void>((done) => site.listen(0, '127.0.0.1', done));
    const url = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
    try {
      const page = await app.firstWindow();
      // Each function runs in the page, where only its own text exists: the bridge is reached inside each.
      expect(await page.evaluate(([target]) => (globalThis as unknown as PageGlobals).vibeeval!.browser.show(target!, { x: 0, y: 100, width: 600, height: 400 }), [url])).toBe(
        true,
      );
      const viewOf = (target: string) =>
        app.evaluate(({ webContents, session }, address) => {
          const view = webContents.getAllWebContents().find((contents) => contents.getURL() === address);
          return view ? { ownSession: view.session !== session.defaultSession, title: view.getTitle() } : null;
        }, target);
      await expect.poll(() => viewOf(url)).toEqual({ ownSession: true, title: 'Live site' });
      const info = await page.evaluate(() => (globalThis as unknown as PageGlobals).vibeeval!.app.info());
      // The embedded server itself is never shown.
      expect(await page.evaluate(([target]) => (globalThis as unknown as PageGlobals).vibeeval!.browser.navigate(target!), [`${info.serverOrigin}/`])).toBe(false);
      await page.evaluate(() => (globalThis as unknown as PageGlobals).vibeeval!.browser.hide());
      await expect.poll(() => viewOf(url)).toBeNull();
      expect(app.windows()).toHaveLength(1);
    } finally {
      await new Promise<void>((done) => site.close(() => done()));
    }
  });
});
