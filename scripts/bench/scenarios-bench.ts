// The scenarios benchmark (npm run bench:scenarios): a 6-step scenario with a sign-in against the local scenario
// fixture site, median of 10 runs (one browser, a fresh context each, as a worker runs them), run-all of 20 scenarios
// at concurrency 2, and the memory one browser context costs.
import { readFileSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { findChromium } from '../../engine/browser';
import type { Step } from '../../common/scenarios';
import { openScenarioBrowser, runScenario, type ScenarioRunResult } from '../../engine/scenarios';
import { SCENARIO_SITE_USER, startScenarioSite } from '../../engine/testing/scenario-site';

const policy = { allowPrivate: true };
const SIGN_IN: Step[] = [
  { type: 'goto', url: '/login' },
  { type: 'fill', target: { by: 'label', text: 'Email' }, value: { credential: 'username' } },
  { type: 'fill', target: { by: 'label', text: 'Password' }, value: { credential: 'password' } },
  { type: 'click', target: { by: 'role', role: 'button', name: 'Sign in' } },
  { type: 'expect_url', pattern: '/dashboard$' },
  { type: 'expect_text', target: { by: 'role', role: 'list' }, text: 'Release checklist' },
];

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : Math.round((sorted[mid - 1]! + sorted[mid]!) / 2);
};

/** Memory of a process in MB from /proc: proportional set size (shared pages split among their users), and RSS. */
function memoryOf(pid: number): { pss: number; rss: number } {
  try {
    const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(rollup)?.[1] ?? 0) / 1024;
    return { pss: field('Pss'), rss: field('Rss') };
  } catch {
    return { pss: 0, rss: 0 };
  }
}

/** Chromium's processes by type, from the browser itself (CDP SystemInfo.getProcessInfo), with their memory. */
async function chromiumMemory(browser: Browser): Promise<{ renderers: number; rendererRss: number; totalPss: number }> {
  const session = await browser.newBrowserCDPSession();
  const { processInfo } = (await session.send('SystemInfo.getProcessInfo')) as { processInfo: { type: string; id: number }[] };
  await session.detach();
  let rendererRss = 0;
  let totalPss = 0;
  let renderers = 0;
  for (const info of processInfo) {
    const memory = memoryOf(info.id);
    totalPss += memory.pss;
    if (info.type === 'renderer') {
      renderers++;
      rendererRss += memory.rss;
    }
  }
  return { renderers, rendererRss, totalPss };
}

/**
 * The reference: the same six actions written directly with Playwright in a plain Chromium (no policy proxy, no
 * guard, no collection), a fresh context and a PNG screenshot each, on the same machine in the same minute.
 */
async function referenceRun(browser: Browser, url: string): Promise<number> {
  const started = performance.now();
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(`${url}login`);
  await page.getByLabel('Email').fill(SCENARIO_SITE_USER.username);
  await page.getByLabel('Password').fill(SCENARIO_SITE_USER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/dashboard$/);
  await page.getByRole('list').getByText('Release checklist').waitFor();
  await page.screenshot({ type: 'png' });
  await context.close();
  return Math.round(performance.now() - started);
}

/** PSS growth of all Chromium processes per open context, each context's page brought to its state by `open`. */
async function memoryPerContext(browser: Browser, open: (page: Page) => Promise<void>, count = 4): Promise<{ pss: number; rendererRss: number }> {
  const idle = await chromiumMemory(browser);
  const contexts = [];
  for (let i = 0; i < count; i++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await open(await context.newPage());
    contexts.push(context);
  }
  await new Promise((resolve) => setTimeout(resolve, 1_000)); // let start-up garbage be collected
  const busy = await chromiumMemory(browser);
  for (const context of contexts) await context.close();
  return { pss: (busy.totalPss - idle.totalPss) / count, rendererRss: busy.renderers ? busy.rendererRss / busy.renderers : 0 };
}

/** 20 runs with 2 at a time (what run-all does with concurrency 2); total wall time. */
async function runAll(one: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  const queue = Array.from({ length: 20 }, (_, i) => i);
  await Promise.all(
    [0, 1].map(async () => {
      while (queue.shift() !== undefined) await one();
    }),
  );
  return Math.round(performance.now() - started);
}

async function main(): Promise<void> {
  const site = await startScenarioSite();
  const launchStarted = performance.now();
  const scenarioBrowser = await openScenarioBrowser({ policy });
  const launchMs = Math.round(performance.now() - launchStarted);
  const { browser } = scenarioBrowser;
  // The reference runs beside the runner, interleaved, so both see the same load on a shared machine.
  const plain = await chromium.launch({
    executablePath: findChromium().path!,
    headless: true,
    args: ['--disable-dev-shm-usage', '--disable-gpu', ...(process.getuid?.() === 0 ? ['--no-sandbox'] : [])],
  });
  const run = (trace: boolean) => runScenario({ website: site.url, steps: SIGN_IN, credentials: SCENARIO_SITE_USER, browser, policy, rateLimit: 0, trace });
  console.log(`Scenarios benchmark: fixture site ${site.url}, ${SIGN_IN.length}-step sign-in scenario, no rate limit, Chromium launched once in ${launchMs} ms.`);
  console.log('Reference: the same steps written directly with Playwright in a plain Chromium (no proxy, guard or collection), interleaved with the runner.');
  let failed = false;
  const verdict = (ok: boolean, label: string, miss = 'SLOW') => {
    failed ||= !ok;
    return `${ok ? 'ok  ' : miss} ${label.padEnd(36)}`;
  };

  await run(false); // warm-up: the first context pays for Chromium's lazy start-up work
  await referenceRun(plain, site.url);
  const results: Record<'off' | 'on', ScenarioRunResult[]> = { off: [], on: [] };
  const reference: number[] = [];
  for (let i = 0; i < 10; i++) {
    results.off.push(await run(false));
    reference.push(await referenceRun(plain, site.url));
    results.on.push(await run(true));
  }
  const ref = median(reference);
  for (const key of ['off', 'on'] as const) {
    const ms = median(results[key].map((result) => result.durationMs));
    const passed = results[key].filter((result) => result.status === 'passed').length;
    console.log(
      `${verdict(ms <= 1_500 && passed === 10, `one run, trace ${key} (median of 10)`)} ${String(ms).padStart(5)} ms, ${passed}/10 passed; reference ${ref} ms, ratio ${(ms / ref).toFixed(2)}; goal ≤ 1500 ms`,
    );
  }

  const passedAll: ScenarioRunResult[] = [];
  const allOff = await runAll(async () => passedAll.push(await run(false)));
  const allRef = await runAll(() => referenceRun(plain, site.url));
  const allOn = await runAll(async () => passedAll.push(await run(true)));
  const passed = passedAll.filter((result) => result.status === 'passed').length;
  console.log(
    `${verdict(allOff <= 15_000, 'run-all of 20, concurrency 2, trace off')} ${allOff} ms; reference ${allRef} ms, ratio ${(allOff / allRef).toFixed(2)}; goal ≤ 15000 ms`,
  );
  console.log(
    `${verdict(allOn <= 15_000, 'run-all of 20, concurrency 2, trace on')} ${allOn} ms; reference ${allRef} ms, ratio ${(allOn / allRef).toFixed(2)}; ${passed} of 40 tests passed`,
  );
  failed ||= passed !== 40;
  await plain.close();

  // Memory: Chromium's processes with no context, then with 4 signed-in contexts open on the dashboard; the
  // reference is the same count of contexts on about:blank (what any context costs before a page loads).
  const signedIn = await memoryPerContext(browser, async (page) => {
    await page.goto(`${site.url}login`);
    await page.getByLabel('Email').fill(SCENARIO_SITE_USER.username);
    await page.getByLabel('Password').fill(SCENARIO_SITE_USER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Release checklist').waitFor();
  });
  const blank = await memoryPerContext(browser, async (page) => void (await page.goto('about:blank')));
  console.log(
    `${verdict(signedIn.pss < 60, 'memory per context', 'BIG ')} ${signedIn.pss.toFixed(1)} MB PSS; reference, an about:blank context: ${blank.pss.toFixed(1)} MB, ratio ${(signedIn.pss / blank.pss).toFixed(2)}; ` +
      `renderer RSS ${signedIn.rendererRss.toFixed(1)} MB each (RSS counts shared pages in each process); goal < 60 MB`,
  );
  await scenarioBrowser.close();
  await site.close();
  process.exitCode = failed ? 1 : 0;
}

void main();
