// npm run bench:dashboard: how soon the signed-in app shows the user's data, in headless Chromium on loopback, each
// figure as a ratio to a static copy of the same rendered page (its HTML and styles, no script) served by the same
// server in the same run: absolute times differ from machine to machine and from minute to minute on a shared one.
//
//   warm       /dashboard/projects, the first project card on screen, second visit in the same browser context
//   cold       the same, first visit of a fresh context that carries only the stored session (and cookie choice)
//   project    a project's page, its URL on screen, second visit in the same context
//   sign-in    Sign In clicked on /login (a fresh context) to the first project card
//
// The references: the static copy of /dashboard/projects loaded the same way (warm for warm, cold for cold and for
// sign-in, which is a first visit of the dashboard), and the static copy of the project page loaded warm.
// Runs the built server (`npm run build` first) of this checkout, or of `--root <checkout>`, on a fresh data dir.
// Options: --runs <n> (default 5; medians are printed), --root <dir>, --browser shell|full.
/* global window, document, MutationObserver, requestAnimationFrame -- in the functions evaluated in the page */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { benchOptions, median, servedApp } from './bench/served-app.mjs';

const { root, runs, browser: browserKind } = benchOptions('bench:dashboard', { runs: 5 });
const GOALS = { warm: 3, cold: 6, project: 3, 'sign-in': 4 };

// The static copies are written once the app has rendered them, but the server serves only the files it found
// when it started (@fastify/static without wildcard): they are created empty first and filled in later.
const STATIC_LIST = '/bench-static-projects.html';
const STATIC_PROJECT = '/bench-static-project.html';
const app = await servedApp({ root, name: 'bench-dashboard', browser: browserKind, ownRenderer: true });
const { origin, rendererDir, chromiumPath } = app;
const writeStatic = (path, html) => {
  const file = join(rendererDir, path.slice(1));
  writeFileSync(file, html);
  writeFileSync(`${file}.br`, brotliCompressSync(html));
  writeFileSync(`${file}.gz`, gzipSync(html));
};
for (const path of [STATIC_LIST, STATIC_PROJECT]) writeStatic(path, '<!doctype html><title>placeholder</title>'.padEnd(2048, ' '));

let browser;

const PROJECT_URL = 'https://bench-1.example.com/';

/**
 * In every page, before its own scripts: notes when the first project card, or the first project's URL, is in the
 * document, at the next animation frame (the frame that shows it), in ms since the page's navigation started.
 */
function watchForData(projectUrl) {
  const seen = { card: NaN, url: NaN, click: NaN };
  window.__bench = seen;
  document.addEventListener('click', () => (seen.click = performance.now()), { capture: true, once: true });
  const check = () => {
    if (Number.isNaN(seen.card) && document.querySelector('[data-testid="project-card"]')) {
      requestAnimationFrame(() => (seen.card = performance.now()));
      seen.card = Infinity;
    }
    if (Number.isNaN(seen.url) && document.body?.textContent.includes(projectUrl) && !document.querySelector('[data-testid="project-card"]')) {
      requestAnimationFrame(() => (seen.url = performance.now()));
      seen.url = Infinity;
    }
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true, characterData: true });
}

const newContext = (storageState) => browser.newContext({ viewport: { width: 1280, height: 900 }, storageState });

async function openPage(context) {
  const page = await context.newPage();
  await page.addInitScript(watchForData, PROJECT_URL);
  return page;
}

/**
 * Loads `path` in `page` and answers when `what` ('card' or 'url') was first on screen. An app page is then left
 * to finish starting (its data can be on screen before its app runs): the next visit measures its own load, not
 * this page's leftover work on the same main thread.
 */
async function visit(page, path, what) {
  await page.goto(origin + path, { waitUntil: 'commit' });
  await page.waitForFunction((key) => Number.isFinite(window.__bench?.[key]), what, { timeout: 60_000, polling: 20 });
  const at = await page.evaluate((key) => window.__bench[key], what);
  if (!path.startsWith('/bench-static')) await page.waitForSelector('html[data-app-ready]', { timeout: 60_000 });
  return at;
}

/** The page as it shows now, without any script: its HTML with every style rule inlined (emotion inserts rules). */
async function staticCopy(page) {
  return page.evaluate(() => {
    const rules = [...document.styleSheets].flatMap((sheet) => [...sheet.cssRules].map((rule) => rule.cssText)).join('\n');
    const copy = document.documentElement.cloneNode(true);
    copy.querySelectorAll('script, style, link[rel="stylesheet"], link[rel="modulepreload"], link[rel="expect"]').forEach((node) => node.remove());
    const style = document.createElement('style');
    style.textContent = rules;
    copy.querySelector('head').append(style);
    return `<!doctype html>${copy.outerHTML}`;
  });
}

/** A user with two projects (the free plan's limit), signed in through the API; their stored session as the app keeps it. */
async function makeUser() {
  const email = `bench-dashboard-${Date.now()}@example.com`;
  const password = 'bench-dashboard-1';
  const headers = { 'content-type': 'application/json', apikey: 'local' };
  const signup = await fetch(`${origin}/auth/v1/signup`, { method: 'POST', headers, body: JSON.stringify({ email, password }) });
  if (!signup.ok) throw new Error(`sign-up answered ${signup.status}`);
  const token = await fetch(`${origin}/auth/v1/token?grant_type=password`, { method: 'POST', headers, body: JSON.stringify({ email, password }) });
  if (!token.ok) throw new Error(`sign-in answered ${token.status}`);
  const session = await token.json();
  let first;
  for (let i = 2; i >= 1; i--) {
    const created = await fetch(`${origin}/project`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${session.access_token}` },
      body: JSON.stringify({ url: `https://bench-${i}.example.com/`, instruction_text: `Bench project ${i}`, num_pages: 1 }),
    });
    if (!created.ok) throw new Error(`creating a project answered ${created.status}: ${await created.text()}`);
    first = await created.json();
  }
  return { email, password, projectId: first.id };
}

/** Signs in on /login as a user does and answers the stored state (session, cookie choice) and the click's time. */
async function signInThroughLogin(user) {
  const context = await newContext();
  await context.addInitScript(() => window.localStorage.setItem('cookie-consent', JSON.stringify({ necessary: true, analytics: false, marketing: false })));
  const page = await openPage(context);
  await page.goto(`${origin}/login`);
  await page.waitForSelector('html[data-app-ready]', { timeout: 60_000 });
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForFunction(() => Number.isFinite(window.__bench.card), undefined, { timeout: 60_000, polling: 20 });
  const took = await page.evaluate(() => window.__bench.card - window.__bench.click);
  const state = await context.storageState();
  await context.close();
  return { took, state };
}

try {
  browser = await app.start();
  const user = await makeUser();
  const { state: signedIn } = await signInThroughLogin(user); // also the browser's warm-up
  const projectPath = `/dashboard/projects/${user.projectId}`;

  // The static copies, taken from the app once its data shows (and the page has settled).
  {
    const context = await newContext(signedIn);
    const page = await openPage(context);
    await visit(page, '/dashboard/projects', 'card');
    await page.waitForLoadState('networkidle');
    writeStatic(STATIC_LIST, await staticCopy(page));
    await visit(page, projectPath, 'url');
    await page.waitForLoadState('networkidle');
    writeStatic(STATIC_PROJECT, await staticCopy(page));
    await context.close();
  }

  const samples = { warm: [], cold: [], project: [], 'sign-in': [], 'static cold': [], 'static warm': [], 'static project': [] };
  // Interleaved, so a busy moment of the machine weighs on the app and its static copies alike.
  for (let run = 0; run < runs; run++) {
    let context = await newContext(signedIn);
    let page = await openPage(context);
    samples.cold.push(await visit(page, '/dashboard/projects', 'card'));
    samples.warm.push(await visit(page, '/dashboard/projects', 'card'));
    await visit(page, projectPath, 'url');
    samples.project.push(await visit(page, projectPath, 'url'));
    await context.close();

    context = await newContext(signedIn);
    page = await openPage(context);
    samples['static cold'].push(await visit(page, STATIC_LIST, 'card'));
    samples['static warm'].push(await visit(page, STATIC_LIST, 'card'));
    await visit(page, STATIC_PROJECT, 'url');
    samples['static project'].push(await visit(page, STATIC_PROJECT, 'url'));
    await context.close();

    samples['sign-in'].push((await signInThroughLogin(user)).took);
  }
  const m = Object.fromEntries(Object.entries(samples).map(([key, list]) => [key, median(list)]));
  const reference = { warm: m['static warm'], cold: m['static cold'], project: m['static project'], 'sign-in': m['static cold'] };
  const referenceName = { warm: 'static warm', cold: 'static cold', project: 'static project (warm)', 'sign-in': 'static cold' };
  console.log(`bench:dashboard ${root}: ${runs} runs, medians, ${chromiumPath} 1280x900, loopback`);
  const rows = Object.keys(GOALS).map((key) => {
    const ratio = m[key] / reference[key];
    return {
      what: key,
      'app ms': Math.round(m[key]),
      reference: referenceName[key],
      'ref ms': Math.round(reference[key]),
      ratio: +ratio.toFixed(2),
      goal: `<= ${GOALS[key]}x`,
      met: ratio <= GOALS[key] ? 'met' : 'NOT met',
    };
  });
  console.table(rows);
} finally {
  await app.stop();
}
