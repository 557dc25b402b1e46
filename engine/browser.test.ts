import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findChromium, playwrightCacheCandidates } from './browser';

describe('findChromium', () => {
  const saved = process.env.PLAYWRIGHT_BROWSERS_PATH;
  const dirs: string[] = [];
  afterEach(() => {
    if (saved === undefined) delete process.env.PLAYWRIGHT_BROWSERS_PATH;
    else process.env.PLAYWRIGHT_BROWSERS_PATH = saved;
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('takes VIBEEVAL_CHROMIUM first, and says when it does not exist', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vibeeval-browser-'));
    dirs.push(dir);
    const exe = join(dir, 'chrome');
    writeFileSync(exe, '');
    expect(findChromium({ VIBEEVAL_CHROMIUM: exe })).toEqual({ path: exe, source: 'VIBEEVAL_CHROMIUM' });
    const missing = findChromium({ VIBEEVAL_CHROMIUM: join(dir, 'gone') });
    expect(missing.path).toBeNull();
    expect('reason' in missing && missing.reason).toMatch(/does not exist/);
  });

  it("prefers Playwright's headless shells, newest first, over its full browsers", () => {
    const root = mkdtempSync(join(tmpdir(), 'vibeeval-pw-cache-'));
    dirs.push(root);
    for (const name of ['chromium-1100', 'chromium-1200', 'chromium_headless_shell-1100', 'chromium_headless_shell-1200', 'firefox-1']) mkdirSync(join(root, name));
    process.env.PLAYWRIGHT_BROWSERS_PATH = root;
    const order = [...new Set(playwrightCacheCandidates().map((path) => path.slice(root.length + 1).split(/[\\/]/)[0]))];
    expect(order).toEqual(['chromium_headless_shell-1200', 'chromium_headless_shell-1100', 'chromium-1200', 'chromium-1100']);
  });

  it.runIf(process.platform === 'linux' && existsSync('/usr/lib/chromium/chromium-headless-shell'))(
    "prefers the system's Chromium headless shell to the full browser (npm test installs chromium-headless-shell)",
    () => expect(findChromium({})).toEqual({ path: '/usr/lib/chromium/chromium-headless-shell', source: 'system' }),
  );
});
