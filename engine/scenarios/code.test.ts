import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stepsSchema, type Step } from '../../common/scenarios';
import { findChromium } from '../browser';
import { SCENARIO_SITE_USER, startScenarioSite, type ScenarioSite } from '../testing/scenario-site';
import { scenarioCode, stepCode } from './code';

const chromium = findChromium();
if (chromium.path === null) console.warn(`code.test.ts: the Playwright run is skipped: ${chromium.reason}`);

const ROOT = resolve(__dirname, '../..');
const SIGN_IN: Step[] = [
  { type: 'goto', url: '/login' },
  { type: 'fill', target: { by: 'label', text: 'Email' }, value: { credential: 'username' } },
  { type: 'fill', target: { by: 'label', text: 'Password' }, value: { credential: 'password' } },
  { type: 'click', target: { by: 'role', role: 'button', name: 'Sign in' } },
  { type: 'expect_url', pattern: '/dashboard$' },
  { type: 'expect_text', target: { by: 'role', role: 'list' }, text: 'Release checklist' },
  { type: 'expect_visible', target: { by: 'test_id', id: 'account' } },
  { type: 'expect_title', text: 'Dashboard - Acme' },
  { type: 'expect_no_console_errors' },
  { type: 'expect_no_failed_requests' },
];
/** Every other kind of step and locator, with strings that need escaping. */
const EVERYTHING: Step[] = stepsSchema.parse([
  { type: 'goto', url: '/contact?from="quote"\\' },
  { type: 'hover', target: { by: 'role', role: 'link', name: 'Pricing', exact: true } },
  { type: 'click', target: { by: 'role', role: 'no-such-role' } },
  { type: 'fill', target: { by: 'placeholder', text: 'it\'s "quoted"\n' }, value: 'line one\nline two ${x} `tick`' },
  { type: 'press', target: { by: 'css', selector: 'input[name="q"]' }, key: 'Enter' },
  { type: 'press', key: 'Control+A' },
  { type: 'select', target: { by: 'label', text: 'Plan', exact: true }, option: 'Pro' },
  { type: 'check', target: { by: 'text', text: 'I agree' } },
  { type: 'check', target: { by: 'text', text: 'Newsletter', exact: false }, checked: false },
  { type: 'wait_for', target: { by: 'test_id', id: 'toast' }, state: 'hidden', timeout_ms: 2000 },
  { type: 'expect_url', pattern: '^https?://[^/]+/(a|b)\\?x=1$' },
]);

describe('scenarioCode', () => {
  let site: ScenarioSite;
  let dir: string;
  beforeAll(async () => {
    site = await startScenarioSite();
    // Inside the project (git-ignored), so the spec files resolve @playwright/test from its node_modules.
    mkdirSync(join(ROOT, 'test-results'), { recursive: true });
    dir = mkdtempSync(join(ROOT, 'test-results', 'scenario-code-'));
  });
  afterAll(async () => {
    await site?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('writes idiomatic Playwright calls, credentials from the environment only', () => {
    const code = scenarioCode({ website: site.url, steps: SIGN_IN, name: 'Sign in' });
    expect(code).toContain("import { test, expect } from '@playwright/test';");
    expect(code).toContain(`test.use({ baseURL: ${JSON.stringify(site.url)}`);
    expect(code).toContain('test("Sign in", async ({ page }) => {');
    expect(code).toContain('const password = credential("VIBEEVAL_TEST_PASSWORD");');
    expect(code).toContain('await page.getByLabel("Password").fill(password);');
    expect(code).toContain('await page.getByRole("button", { name: "Sign in" }).click();');
    expect(code).toContain('await expect(page).toHaveURL(new RegExp("/dashboard$"));');
    expect(code).toContain('await expect(page.getByRole("list")).toContainText("Release checklist");');
    expect(code).toContain("page.on('requestfailed'");
    expect(code).not.toContain(SCENARIO_SITE_USER.password);
    expect(code).not.toContain(SCENARIO_SITE_USER.username);
    expect(stepCode({ type: 'expect_title', text: 'a.b (c)' })).toBe('await expect(page).toHaveTitle(new RegExp("a\\\\.b \\\\(c\\\\)"));');
  });

  it('compiles under strict TypeScript for several scenarios', () => {
    const files = [
      ['sign-in.spec.ts', scenarioCode({ website: site.url, steps: SIGN_IN, name: 'Sign in' })],
      ['everything.spec.ts', scenarioCode({ website: 'https://example.com/app/', steps: EVERYTHING, name: 'Every "step" kind\n`${x}`' })],
      [
        'home.spec.ts',
        scenarioCode({
          website: site.url,
          steps: [
            { type: 'goto', url: '/' },
            { type: 'expect_title', text: 'Acme Notes' },
          ],
          name: 'Home loads',
        }),
      ],
    ].map(([name, code]) => {
      const path = join(dir, name!);
      writeFileSync(path, code!);
      return path;
    });
    const program = ts.createProgram(files, {
      strict: true,
      noEmit: true,
      noUnusedLocals: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      types: ['node'],
      skipLibCheck: true,
    });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    expect(diagnostics).toEqual([]);
  });

  it.skipIf(chromium.path === null)('runs with npx playwright test against the site, and fails clearly without the credentials', async () => {
    const runDir = join(dir, 'run');
    mkdirSync(runDir);
    writeFileSync(join(runDir, 'sign-in.spec.ts'), scenarioCode({ website: site.url, steps: SIGN_IN, name: 'Sign in' }));
    writeFileSync(
      join(runDir, 'playwright.config.ts'),
      `import { defineConfig } from '@playwright/test';\nexport default defineConfig({ testDir: '.', workers: 1, reporter: 'line', outputDir: ${JSON.stringify(join(runDir, 'out'))}, use: { launchOptions: { executablePath: ${JSON.stringify(chromium.path)}, args: ['--no-sandbox'] } } });\n`,
    );
    // Asynchronous: the site answers from this process while Playwright runs.
    const playwright = (env: NodeJS.ProcessEnv) =>
      new Promise<{ status: number; output: string }>((done) => {
        const args = [join(ROOT, 'node_modules/@playwright/test/cli.js'), 'test', '--config', join(runDir, 'playwright.config.ts')];
        execFile(process.execPath, args, { cwd: ROOT, timeout: 90_000, env: { ...process.env, CI: '1', FORCE_COLOR: '0', ...env } }, (error, stdout, stderr) =>
          done({ status: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` }),
        );
      });
    const passed = await playwright({ VIBEEVAL_TEST_USERNAME: SCENARIO_SITE_USER.username, VIBEEVAL_TEST_PASSWORD: SCENARIO_SITE_USER.password });
    expect(passed.output).toMatch(/1 passed/);
    expect(passed.status).toBe(0);
    const unset = await playwright({ VIBEEVAL_TEST_USERNAME: '', VIBEEVAL_TEST_PASSWORD: '' });
    expect(unset.status).not.toBe(0);
    expect(unset.output).toContain("Set VIBEEVAL_TEST_USERNAME to the test account's value before running this test");
  });
});
