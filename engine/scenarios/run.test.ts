import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Step } from '../../common/scenarios';
import { findChromium } from '../browser';
import { startScenarioHarness, type ScenarioHarness } from '../testing/scenario-harness';
import { SCENARIO_SITE_USER, type ScenarioSite } from '../testing/scenario-site';
import type { ScenarioBrowser } from './types';
import { runScenario } from './run';
import type { RunEvent } from './types';
import { readZip } from './zip';

const chromium = findChromium();
if (chromium.path === null) console.warn(`run.test.ts skipped: ${chromium.reason}`);

const policy = { allowPrivate: true };
const LOGIN: Step[] = [
  { type: 'goto', url: '/login' },
  { type: 'fill', target: { by: 'label', text: 'Email' }, value: { credential: 'username' } },
  { type: 'fill', target: { by: 'label', text: 'Password' }, value: { credential: 'password' } },
  { type: 'click', target: { by: 'role', role: 'button', name: 'Sign in' } },
  { type: 'expect_url', pattern: '/dashboard$' },
  { type: 'expect_text', target: { by: 'role', role: 'list' }, text: 'Release checklist' },
];

describe.skipIf(chromium.path === null)('runScenario', () => {
  let harness: ScenarioHarness;
  let site: ScenarioSite;
  let browser: ScenarioBrowser;
  beforeAll(async () => {
    harness = await startScenarioHarness(chromium.path);
    ({ site, browser } = harness);
  });
  afterAll(() => harness?.close());
  const run = (steps: Step[], extra: Partial<Parameters<typeof runScenario>[0]> = {}) =>
    runScenario({ website: site.url, steps, credentials: SCENARIO_SITE_USER, browser: browser.browser, policy, rateLimit: 0, trace: false, ...extra });
  /** What a finished run leaves open: the blank spare for the next run at most, never its own context. */
  const expectOnlyTheSpare = async () => {
    // A spare still opening shows up a moment later, first as a context without its page (longer on a busy machine).
    const open = () => browser.browser.contexts().map((context) => context.pages().map((page) => page.url()));
    await expect.poll(() => open().every((pages) => pages.length > 0), { timeout: 5_000 }).toBe(true);
    const contexts = open();
    expect(contexts.length).toBeLessThanOrEqual(1);
    for (const pages of contexts) expect(pages).toEqual(['about:blank']);
  };

  it('signs in and passes, telling page views, clicks, the form submit and API calls', async () => {
    const events: RunEvent[] = [];
    const result = await run([...LOGIN, { type: 'expect_no_console_errors' }, { type: 'expect_no_failed_requests' }], { onEvent: (event) => events.push(event) });
    expect(result.error).toBeNull();
    expect(result.status).toBe('passed');
    expect(result.steps.map((step) => step.status)).toEqual(Array(8).fill('passed'));
    expect(result.screenshot?.subarray(1, 4).toString()).toBe('PNG');
    expect(result.trace).toBeNull();
    const kinds = events.map((event) => event.kind);
    expect(kinds.filter((kind) => kind === 'page_view').length).toBeGreaterThanOrEqual(2);
    expect(events).toContainEqual(expect.objectContaining({ kind: 'button_click', step: 3 }));
    expect(events).toContainEqual(expect.objectContaining({ kind: 'form_submit', step: 3 }));
    expect(events).toContainEqual(expect.objectContaining({ kind: 'api_call', method: 'GET', status: 200, url: `${site.origin}/api/notes` }));
    expect(JSON.stringify(events)).not.toContain(SCENARIO_SITE_USER.password);
    await expectOnlyTheSpare();
  });

  it('fails at the right step with a screenshot when the page changed, later steps skipped', async () => {
    site.setVariant('changed');
    try {
      const events: RunEvent[] = [];
      const result = await run(LOGIN, { onEvent: (event) => events.push(event) });
      expect(result.status).toBe('failed');
      expect(result.failedStep).toBe(3);
      expect(result.error).toBe('Click button "Sign in": button "Sign in" was not found within 5 s');
      expect(result.steps.map((step) => step.status)).toEqual(['passed', 'passed', 'passed', 'failed', 'skipped', 'skipped']);
      expect(result.steps[3]!.error).toBe(result.error);
      expect(result.screenshot?.subarray(1, 4).toString()).toBe('PNG');
      expect(events).toContainEqual({ kind: 'error', url: `${site.origin}/login`, description: result.error });
    } finally {
      site.setVariant('original');
    }
  });

  it('collects console errors and failed requests, and fails their assertions', async () => {
    const first = await run([{ type: 'goto', url: '/broken' }, { type: 'expect_no_console_errors' }]);
    expect(first.status).toBe('failed');
    // The script's own error, then Chromium's report of the 503.
    expect(first.error).toMatch(/^Expect no console errors: 2 console error\(s\), first: Status widget failed to load$/);
    expect(first.consoleErrors[1]).toMatch(/status of 503/);
    const second = await run([{ type: 'goto', url: '/broken' }, { type: 'expect_no_failed_requests' }]);
    expect(second.error).toMatch(/^Expect no failed requests: 1 failed request\(s\), first: GET http:\/\/127\.0\.0\.1:\d+\/api\/status \(HTTP 503\)/);
    expect(second.failedRequests).toEqual([{ url: `${site.origin}/api/status`, method: 'GET', failure: 'HTTP 503' }]);
    expect(second.consoleErrors).toContain('Status widget failed to load');
  });

  it('refuses another origin, and a credential step without credentials', async () => {
    const other = await run([{ type: 'goto', url: 'http://example.com/' }]);
    expect(other.error).toMatch(/another origin than the website/);
    const none = await run(LOGIN, { credentials: null });
    expect(none.failedStep).toBe(1);
    expect(none.error).toBe('Fill field labelled "Email": This step types the project\'s test username, but the project has no test credentials');
  });

  it('obeys the address policy: a private address is refused when the policy refuses them', async () => {
    const refused = await run([{ type: 'goto', url: '/' }], { policy: { allowPrivate: false } });
    expect(refused.error).toBe('Open /: the scan address policy refused the address');
  });

  it('runs every kind of step', async () => {
    const result = await run([
      { type: 'goto', url: '/contact' },
      { type: 'expect_title', text: 'Contact' },
      { type: 'hover', target: { by: 'role', role: 'link', name: 'Pricing' } },
      { type: 'click', target: { by: 'role', role: 'button', name: 'Send message' } },
      { type: 'expect_text', target: { by: 'role', role: 'alert' }, text: 'Please enter your email address.' },
      { type: 'fill', target: { by: 'label', text: 'Your email' }, value: 'someone@example.com' },
      { type: 'fill', target: { by: 'css', selector: '#cmsg' }, value: 'Hello' },
      { type: 'press', target: { by: 'label', text: 'Your email' }, key: 'Enter' },
      { type: 'wait_for', target: { by: 'text', text: 'Thanks, we will answer soon.' }, state: 'visible', timeout_ms: 2000 },
      { type: 'expect_visible', target: { by: 'text', text: 'Thanks', exact: false } },
      { type: 'goto', url: '/dashboard' },
      { type: 'expect_url', pattern: '/login' },
    ]);
    expect(result.error).toBeNull();
  });

  it('keeps the password out of the trace and the screenshot mask on', async () => {
    const result = await run(LOGIN, { trace: true });
    expect(result.status).toBe('passed');
    expect(result.trace).not.toBeNull();
    const entries = readZip(result.trace!);
    expect(entries.map((entry) => entry.name)).toEqual(expect.arrayContaining(['trace.trace', 'trace.network']));
    // DOM snapshots, no screencast frames (images, where a typed user name could not be masked).
    expect(entries.filter((entry) => /\.jpe?g$/.test(entry.name)).map((entry) => entry.name)).toEqual([]);
    expect(entries.some((entry) => entry.data.toString('latin1').includes('"type":"frame-snapshot"'))).toBe(true);
    // The trace did record the sign-in (fill actions and the form post), with the password masked.
    const text = entries.map((entry) => entry.data.toString('latin1')).join('\n');
    expect(text).toContain('"method":"fill"');
    expect(text).toContain('********');
    for (const entry of entries) {
      expect(entry.data.includes(SCENARIO_SITE_USER.password), entry.name).toBe(false);
      expect(entry.data.includes(encodeURIComponent(SCENARIO_SITE_USER.password)), entry.name).toBe(false);
    }
  });

  it('masks password fields in the screenshot when the page has one', async () => {
    /** The colour of the screenshot's pixel at the middle of the login page's `selector` (1280x800, as runs are). */
    const pixelAt = async (png: Buffer, selector: string) => {
      const context = await browser.browser.newContext({ viewport: { width: 1280, height: 800 } });
      try {
        const page = await context.newPage();
        await page.goto(`${site.url}login`);
        const box = (await page.locator(selector).boundingBox())!;
        await page.setContent(`<canvas width="1280" height="800"></canvas>`);
        // A string: the engine is compiled without the DOM's types.
        const [x, y] = [Math.round(box.x + box.width / 2), Math.round(box.y + box.height / 2)];
        return await page.evaluate<number[]>(`(async () => {
          const image = new Image();
          image.src = 'data:image/png;base64,${png.toString('base64')}';
          await image.decode();
          const draw = document.querySelector('canvas').getContext('2d');
          draw.drawImage(image, 0, 0);
          return [...draw.getImageData(${x}, ${y}, 1, 1).data.slice(0, 3)];
        })()`);
      } finally {
        await context.close();
      }
    };
    // Ends on the sign-in page with the password typed: the field is covered (Playwright's mask colour, #FF00FF).
    const typed = await run([LOGIN[0]!, LOGIN[2]!]);
    expect(typed.status, typed.error ?? '').toBe('passed');
    expect(await pixelAt(typed.screenshot!, '#password')).toEqual([255, 0, 255]);
    expect(await pixelAt(typed.screenshot!, '#email')).not.toEqual([255, 0, 255]);
  });

  it('starts each run on a spare context opened ahead, in which nothing ran: no session carries over', async () => {
    expect((await run(LOGIN)).status).toBe('passed');
    await expectOnlyTheSpare();
    // Straight to the dashboard: a session cookie left from the sign-in above would let this through.
    const after = await run([
      { type: 'goto', url: '/dashboard' },
      { type: 'expect_url', pattern: '/login$' },
    ]);
    expect(after.status, after.error ?? '').toBe('passed');
    expect((await run([{ type: 'goto', url: '/' }])).status).toBe('passed');
    await expectOnlyTheSpare();
  });

  it('stops on abort with Cancelled and closes its context', async () => {
    const controller = new AbortController();
    let abortedAt = 0;
    const steps: Step[] = [
      { type: 'goto', url: '/' },
      { type: 'wait_for', target: { by: 'text', text: 'never there' }, state: 'visible', timeout_ms: 20_000 },
    ];
    // Aborted while the second step waits: once the page has loaded.
    const onEvent = (event: RunEvent) => {
      if (event.kind === 'page_view' && !abortedAt) setTimeout(() => ((abortedAt = performance.now()), controller.abort()), 500);
    };
    const result = await run(steps, { signal: controller.signal, onEvent });
    expect(performance.now() - abortedAt).toBeLessThan(2_000);
    expect(result.error).toBe('Cancelled');
    expect(result.failedStep).toBe(1);
    await expectOnlyTheSpare();
  });

  it('paces requests to the website by the rate limit', async () => {
    const before = site.requests.length;
    const started = performance.now();
    // Five page loads at 2 per second: the first two go at once (the burst), the other three wait half a second each.
    const result = await run(
      Array.from({ length: 5 }, (): Step => ({ type: 'goto', url: '/pricing' })),
      { rateLimit: 2 },
    );
    expect(result.status).toBe('passed');
    expect(site.requests.length - before).toBe(5);
    expect(performance.now() - started).toBeGreaterThan(1_300);
  });
});
