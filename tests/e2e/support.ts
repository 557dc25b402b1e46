import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { expect, type Page, type Response } from '@playwright/test';

let counter = 0;
/** An address no other test uses: the two workers share one server, so the process id keeps their counters apart. */
export const newEmail = () => `e2e-${Date.now()}-${process.pid}-${++counter}@example.test`;

/** Saves a full-page screenshot under test-results/screens/ (kept as a CI artifact). */
export async function snap(page: Page, name: string) {
  await page.screenshot({ path: join('test-results', 'screens', `${name}.png`), fullPage: true });
}

/**
 * The mails to `to` in the shared server's outbox (it has no SMTP_URL, so it writes one .eml file per message), with
 * quoted-printable soft line breaks and `=3D` undone. Only mails addressed to `to`: the specs running beside this
 * one mail the same outbox.
 */
export async function mailsTo(to: string): Promise<string[]> {
  const outbox = join(process.env.E2E_DATA_DIR!, 'outbox');
  const header = `To: ${to}`;
  const mails: string[] = [];
  for (const file of await readdir(outbox).catch(() => [] as string[])) {
    const raw = (await readFile(join(outbox, file), 'utf8')).replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    if (raw.split(/\r?\n/).includes(header)) mails.push(raw);
  }
  return mails;
}

/** Waits for a mail to `to` carrying a link matching `pattern`, and answers the link (`&amp;` undone). */
export async function mailedLink(to: string, pattern: RegExp, timeout = 15_000): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(async () => (link = (await mailsTo(to)).map((raw) => pattern.exec(raw)?.[0]).find(Boolean)), { message: `a mail to ${to} with a link like ${pattern}`, timeout })
    .toBeTruthy();
  return link!.replace(/&amp;/g, '&');
}

/** The recovery link mailed to `to` (the sign-up's confirmation mail carries a /verify link too: type=signup). */
export function recoveryLinkFor(to: string): Promise<string> {
  return mailedLink(to, /https?:\/\/[^\s"<]+\/auth\/v1\/verify[^\s"<]+type=recovery[^\s"<]*/);
}

export async function signUp(page: Page, email: string, password: string, timeout?: number) {
  await openReady(page, '/signup');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm Password').fill(password);
  // What the sign-up request answered, for the failure message below (seen once in CI: the page stayed on /signup).
  const answers: string[] = [];
  const onResponse = (response: Response) => {
    if (response.url().includes('/auth/v1/signup')) answers.push(`${response.status()} ${response.statusText()}`);
  };
  page.on('response', onResponse);
  await page.getByRole('button', { name: 'Sign Up' }).click();
  try {
    await expect(page).toHaveURL(/\/login$/, { timeout });
  } catch (error) {
    const toasts = await page
      .getByTestId('toast')
      .allInnerTexts()
      .catch(() => []);
    // A string: this file is type-checked without the DOM library.
    const fields = await page.evaluate<string[]>(`[...document.querySelectorAll('input')].map((i) => i.type + '=' + i.value.length)`).catch(() => []);
    throw new Error(
      `Sign Up did not lead to /login. Sign-up answers: ${JSON.stringify(answers)}; toasts: ${JSON.stringify(toasts)}; field lengths: ${fields.join(', ')}\n${String(error)}`,
    );
  } finally {
    page.off('response', onResponse);
  }
  // The address changes before the sign-in page replaces the sign-up page: typing before then went into the
  // sign-up page's Email field and was lost (seen once in CI).
  await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible();
}

export async function signIn(page: Page, email: string, password: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

/** Waits for the page's finite CSS animations and transitions to end (an accordion opening, a dialog appearing). */
export async function animationsDone(page: Page): Promise<void> {
  // A string: this file is type-checked without the DOM library. Endless ones (spinners) would never end.
  await page.evaluate(`Promise.all(document.getAnimations().filter((a) => a.effect?.getComputedTiming().endTime !== Infinity).map((a) => a.finished.catch(() => undefined)))`);
}

/** Closes every toast, which would otherwise cover the content in a screenshot. */
export async function closeToasts(page: Page) {
  await expect(async () => {
    const close = page.getByRole('button', { name: 'Close notification' });
    if ((await close.count()) > 0) await close.first().click({ timeout: 1000 });
    await expect(page.getByTestId('toast')).toHaveCount(0, { timeout: 500 });
  }).toPass({ timeout: 15_000 });
}

/**
 * Full-page screenshots of a dashboard screen at 1280 and 375 px, toasts closed and scrolled to the top (a scrolled
 * page draws its sticky bars mid-image in a full-page shot); at 375 px nothing may be wider than the screen.
 */
export async function snapBoth(page: Page, name: string) {
  await closeToasts(page);
  await page.evaluate('window.scrollTo(0, 0)');
  await snap(page, `${name}-1280`);
  await page.setViewportSize({ width: 375, height: 812 });
  await expect.poll(() => page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
  await snap(page, `${name}-375`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** A new account, signed up and signed in through the screens, on /dashboard/projects; answers its email. */
export async function signedIn(page: Page): Promise<string> {
  const email = newEmail();
  await signUp(page, email, 'secret123', 30_000);
  await signIn(page, email, 'secret123');
  // The dashboard's first load can be slow on a busy machine.
  await expect(page).toHaveURL(/\/dashboard\/projects$/, { timeout: 30_000 });
  return email;
}

export interface TestPage {
  type: string;
  body: string;
  headers?: Record<string, string>;
  /** The status code; 200 unless given (a 401 page behind a login, a redirect). */
  status?: number;
  /** Answered only once the promise this returns resolves: holds a scan mid-crawl while the test looks at it. */
  held?: () => Promise<void>;
}

/** A promise and the function that resolves it: a test site's page held until the test has seen what it waits for. */
export function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** A tiny site on 127.0.0.1 for real scans: `pages` by path, anything else the given 404. Close it with `close()`. */
export async function startTestSite(pages: Record<string, TestPage>, notFound: { type: string; body: string }): Promise<{ url: string; close(): Promise<void> }> {
  const site = createServer((request, response) => {
    const page = pages[new URL(request.url ?? '/', 'http://x').pathname];
    if (!page) {
      response.writeHead(404, { 'content-type': notFound.type }).end(notFound.body);
      return;
    }
    void (page.held?.() ?? Promise.resolve()).then(() => response.writeHead(page.status ?? 200, { 'content-type': page.type, ...page.headers }).end(page.body));
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const { port } = site.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise<void>((resolve) => site.close(() => resolve())) };
}

/** Full-page screenshots at the two widths every public route is checked at (375 and 1280 px). */
export async function snapWidths(page: Page, name: string) {
  const original = page.viewportSize();
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await snap(page, `${name}-${width}`);
  }
  if (original) await page.setViewportSize(original);
}

// Resolved from the project root: Playwright loads this file as CommonJS, where import.meta is unavailable.
const axeSource = readFile(createRequire(join(process.cwd(), 'package.json')).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Runs axe-core (WCAG 2.x A/AA and best practices) on the page as it is and fails with the rule ids, impacts
 * and first targets of every serious or critical violation.
 */
export async function expectNoSeriousA11yViolations(page: Page) {
  // Colours are judged as they end: text still fading in (an accordion just opened) reads as low contrast (seen in CI).
  await animationsDone(page);
  // Evaluated through the DevTools protocol, which the page's CSP (script-src 'self') does not govern.
  await page.evaluate(await axeSource);
  // A string, not a function: this file is type-checked without the DOM library.
  const violations = await page.evaluate<{ id: string; impact: string | null; targets: string[] }[]>(`(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact ?? null, targets: v.nodes.slice(0, 3).map((n) => JSON.stringify(n.target) + ' ' + n.html.slice(0, 160) + ' ' + (n.failureSummary ?? '').slice(0, 200)) }));
  })()`);
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious, JSON.stringify(serious, null, 2)).toEqual([]);
}

/** A port free at the moment of asking (bound to port 0 and closed again). */
function freePort(): Promise<number> {
  return new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * A second app server (the built CLI in web mode) with its own data dir, port and environment, for tests that
 * need settings the shared server lacks (e.g. SMTP_URL pointing at a capture server). `stop()` ends it.
 * The port is free when asked for, but the other worker's app server (or any connection's local port) can take it
 * before this one binds it: a server that exits before answering /health is started again on another port.
 */
export async function startAppServer(env: Record<string, string>): Promise<{ origin: string; stop(): Promise<void> }> {
  for (let attempt = 1; ; attempt++) {
    const dataDir = await mkdtemp(join(tmpdir(), 'vibeeval-e2e-app-'));
    const port = await freePort();
    const child = spawn(process.execPath, [join(process.cwd(), 'bin', 'vibeeval.cjs'), 'serve'], {
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        LOG_LEVEL: 'warn',
        HOST: '127.0.0.1',
        PORT: String(port),
        VIBEEVAL_DATA_DIR: dataDir,
        DATABASE_URL: '',
        VIBEEVAL_UNSUBSCRIBED_TIER: 'enterprise',
        VIBEEVAL_API_PLAN: 'free',
        ...env,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const origin = `http://127.0.0.1:${port}`;
    if (await answersHealth(origin, exited)) {
      return {
        origin,
        async stop() {
          // SIGINT lets it stop its embedded PostgreSQL.
          child.kill('SIGINT');
          await exited;
          await rm(dataDir, { recursive: true, force: true });
        },
      };
    }
    await rm(dataDir, { recursive: true, force: true });
    if (attempt === 3) throw new Error(`the app server exited with ${await exited} before answering, ${attempt} times`);
  }
}

/** Polls `origin`/health until it answers (true) or the server exits (false); throws after 60 s. */
async function answersHealth(origin: string, exited: Promise<number | null>): Promise<boolean> {
  let gone = false;
  void exited.then(() => (gone = true));
  const deadline = Date.now() + 60_000;
  while (!gone) {
    if (
      await fetch(`${origin}/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return true;
    if (Date.now() > deadline) throw new Error('the app server did not answer /health within 60 s');
    // A poll every 200 ms, cut short when the server exits.
    await Promise.race([exited, new Promise((r) => setTimeout(r, 200))]);
  }
  return false;
}

/** Stores a cookie choice before any page script runs, so the consent banner stays away (layout checks, screenshots). */
export async function withCookieChoice(page: Page) {
  await page.addInitScript(`window.localStorage.setItem('cookie-consent', JSON.stringify({ necessary: true, analytics: false, marketing: false }))`);
}

/**
 * Waits for the app to run in the page just loaded: a prerendered page paints before it starts
 * (renderer/start-after-paint.js), and its form fields and buttons act only once it does. Starting the app on a
 * loaded 2-core machine can take longer than an assertion's 10 s, which the next assertion should not pay for.
 */
export async function appRunning(page: Page): Promise<void> {
  await expect(page.locator('html[data-app-ready="true"]')).toHaveCount(1, { timeout: 30_000 });
}

/** Opens `path` (a path of the shared server, or a full URL) and waits for the app to run. */
export async function openReady(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await appRunning(page);
}

/** Reloads the page and waits for the app to run again. */
export async function reloadReady(page: Page): Promise<void> {
  await page.reload();
  await appRunning(page);
}

export interface Trouble {
  kind: 'console' | 'pageerror' | 'response' | 'requestfailed';
  text: string;
}

/** Records the page's console errors, uncaught exceptions, answers of 400 and more, and requests that failed. */
export function watchConsole(page: Page): Trouble[] {
  const seen: Trouble[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') seen.push({ kind: 'console', text: `${message.text()} (${message.location().url})` });
  });
  page.on('pageerror', (error) => seen.push({ kind: 'pageerror', text: error.message }));
  page.on('response', (response) => {
    if (response.status() >= 400) seen.push({ kind: 'response', text: `${response.status()} ${response.request().method()} ${response.url()}` });
  });
  page.on('requestfailed', (request) => {
    // A request the page itself dropped on leaving (a live stream, an image of the previous screen) is no error.
    if (request.failure()?.errorText === 'net::ERR_ABORTED') return;
    seen.push({ kind: 'requestfailed', text: `${request.method()} ${request.url()}: ${request.failure()?.errorText ?? ''}` });
  });
  return seen;
}
