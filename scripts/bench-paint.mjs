// npm run bench:paint: first contentful paint (FCP) and largest contentful paint (LCP) in headless Chromium, on
// loopback, for /, /login and /dashboard/projects (signed in), each next to a static HTML page of similar size
// (no script) served by the same server in the same run, as ratios: absolute times differ from machine to machine
// and from minute to minute on a shared one.
//
// Runs the built server (`npm run build` first) of this checkout, or of `--root <checkout>` (to measure another
// commit with this script), on a fresh data dir, with a copy of its built renderer plus the reference page.
// Options: --runs <n> (default 7; the medians are printed), --root <dir>, --browser shell|full. Visits carry a stored
// cookie choice.
/* global window, location -- in the functions evaluated in the page */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { benchOptions, median, servedApp } from './bench/served-app.mjs';

const { root, runs, browser: browserKind } = benchOptions('bench:paint', { runs: 7 });
const GOAL_PUBLIC_FCP_MS = 600;

/**
 * The reference: a static page of about the landing page's size (200 KB: 90 KB of CSS in <head>, a header, a
 * hero and text sections), no script at all. What this machine's Chromium needs to paint that much HTML.
 */
function referencePage() {
  const rules = Array.from({ length: 1800 }, (_, i) => `.r${i}{margin:${i % 7}px;padding:${i % 5}px ${i % 3}px;color:hsl(${i % 360} 40% 30%);}`).join('');
  const sections = Array.from(
    { length: 60 },
    (_, i) =>
      `<section class="r${i}"><h2>Section ${i + 1}: what a scan finds</h2><p>${'Readable tables, leaked keys, exposed files and weak headers, each with its evidence and how to fix it. '.repeat(8)}</p></section>`,
  ).join('');
  return `<!doctype html><html lang="en"><head><meta charset="UTF-8"><meta name="viewport" content="width=device-width, initial-scale=1.0"><title>Reference</title><style>body{margin:0;font-family:system-ui,sans-serif;line-height:1.5}header{height:64px;border-bottom:1px solid #ddd}h1{font-size:3.5rem;text-align:center;margin:80px auto 24px;max-width:56rem}main{max-width:72rem;margin:auto;padding:0 24px}${rules}</style></head><body><header></header><main><h1>Find the security holes in your AI-built app before anyone else does</h1>${sections}</main></body></html>`;
}

const app = await servedApp({ root, name: 'bench-paint', browser: browserKind, ownRenderer: true });
const { origin, rendererDir, chromiumPath } = app;
const reference = referencePage();
writeFileSync(join(rendererDir, 'bench-reference.html'), reference);
writeFileSync(join(rendererDir, 'bench-reference.html.br'), brotliCompressSync(reference));
writeFileSync(join(rendererDir, 'bench-reference.html.gz'), gzipSync(reference));
let browser;

/** Paint timings of one cold load of `path` (a fresh context: no cache, no storage but `storageState`). */
async function measure(path, storageState) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, storageState });
  const page = await context.newPage();
  await page.addInitScript(() => {
    // A stored cookie choice: the consent banner, shown a few seconds after load by design, would otherwise be
    // the largest paint of the short pages and make LCP measure that delay.
    window.localStorage.setItem('cookie-consent', JSON.stringify({ necessary: true, analytics: false, marketing: false }));
    window.__paint = { lcp: 0, cls: 0 };
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__paint.lcp = entry.startTime;
    }).observe({ type: 'largest-contentful-paint', buffered: true });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__paint.cls += entry.value;
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto(origin + path, { waitUntil: 'load' });
  // The app marks <html data-app-ready> once it runs; the reference has no script. Then a moment for late paints.
  if (!path.startsWith('/bench-')) await page.waitForSelector('html[data-app-ready]', { timeout: 30_000 }).catch(() => undefined);
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(500);
  const result = await page.evaluate(() => ({
    fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
    lcp: window.__paint.lcp || NaN,
    cls: window.__paint.cls,
    at: location.pathname,
  }));
  await context.close();
  if (result.at !== path.split('?')[0]) throw new Error(`${path} ended at ${result.at}`);
  return result;
}

try {
  browser = await app.start();

  // A signed-in session, made through the app's own sign-in screen.
  const email = `bench-paint-${Date.now()}@example.com`;
  const password = 'bench-paint-1';
  const signup = await fetch(`${origin}/auth/v1/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', apikey: 'local' },
    body: JSON.stringify({ email, password }),
  });
  if (!signup.ok) throw new Error(`sign-up answered ${signup.status}`);
  const signIn = await browser.newContext();
  const login = await signIn.newPage();
  await login.goto(`${origin}/login`);
  await login.getByRole('button', { name: 'Sign In' }).waitFor();
  await login.getByLabel('Email').fill(email);
  await login.getByLabel('Password', { exact: true }).fill(password);
  await login.getByRole('button', { name: 'Sign In' }).click();
  await login.waitForURL(/\/dashboard\/projects$/, { timeout: 30_000 }).catch(async (error) => {
    const toasts = await login.getByTestId('toast').allInnerTexts();
    throw new Error(`signing in did not reach the dashboard (at ${login.url()}, toasts: ${JSON.stringify(toasts)}): ${error.message}`);
  });
  const signedIn = await signIn.storageState();
  await signIn.close();

  const targets = [
    { label: 'static reference', path: '/bench-reference.html' },
    { label: '/', path: '/' },
    { label: '/login', path: '/login' },
    { label: '/dashboard/projects (signed in)', path: '/dashboard/projects', storageState: signedIn },
  ];
  await measure('/bench-reference.html'); // warm-up: the browser's first page pays its own start
  const samples = new Map(targets.map((t) => [t.label, []]));
  // Interleaved, so a busy moment of the machine weighs on every page alike.
  for (let run = 0; run < runs; run++) {
    for (const target of targets) samples.get(target.label).push(await measure(target.path, target.storageState));
  }
  const reference = samples.get('static reference');
  const refFcp = median(reference.map((s) => s.fcp));
  const refLcp = median(reference.map((s) => s.lcp));
  console.log(`bench:paint ${root}: ${runs} cold loads each, medians, ${chromiumPath} 1280x900, loopback`);
  const rows = targets.map(({ label }) => {
    const list = samples.get(label);
    const fcp = median(list.map((s) => s.fcp));
    const lcp = median(list.map((s) => s.lcp));
    const cls = Math.max(...list.map((s) => s.cls));
    return {
      page: label,
      'FCP ms': Math.round(fcp),
      'FCP / ref': +(fcp / refFcp).toFixed(2),
      'LCP ms': Math.round(lcp),
      'LCP / ref': +(lcp / refLcp).toFixed(2),
      'max CLS': +cls.toFixed(3),
    };
  });
  console.table(rows);
  const publicFcp = Math.max(...rows.filter((r) => r.page === '/' || r.page === '/login').map((r) => r['FCP ms']));
  console.log(`public pages' first content: ${publicFcp} ms (goal < ${GOAL_PUBLIC_FCP_MS} ms): ${publicFcp < GOAL_PUBLIC_FCP_MS ? 'met' : 'NOT met'}`);
} finally {
  await app.stop();
}
