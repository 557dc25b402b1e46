// Probe: the prerendered /dashboard/projects page next to its static copy: parse and paint times, warm.
/* global document -- in the functions evaluated in the page */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { benchOptions, servedApp } from './served-app.mjs';
const { root, browser: kind } = benchOptions('probe', { runs: 1 });
const app = await servedApp({ root, name: 'probe', browser: kind, ownRenderer: true });
const { origin, rendererDir } = app;
const STATIC = '/probe-static.html';
const write = (html) => { writeFileSync(join(rendererDir, STATIC.slice(1)), html); writeFileSync(join(rendererDir, STATIC.slice(1) + '.gz'), gzipSync(html)); };
write('<!doctype html>'.padEnd(2048, ' '));
try {
  const browser = await app.start();
  const headers = { 'content-type': 'application/json', apikey: 'local' };
  const email = `probe-${Date.now()}@example.com`, password = 'probe-pass-1';
  await fetch(`${origin}/auth/v1/signup`, { method: 'POST', headers, body: JSON.stringify({ email, password }) });
  const session = await (await fetch(`${origin}/auth/v1/token?grant_type=password`, { method: 'POST', headers, body: JSON.stringify({ email, password }) })).json();
  for (let i = 2; i >= 1; i--) await fetch(`${origin}/project`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${session.access_token}` }, body: JSON.stringify({ url: `https://bench-${i}.example.com/`, instruction_text: `Bench ${i}`, num_pages: 1 }) });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript(([s]) => {
    if (!localStorage.getItem('vibeeval-auth-token')) localStorage.setItem('vibeeval-auth-token', s);
    localStorage.setItem('cookie-consent', JSON.stringify({ necessary: true, analytics: false, marketing: false }));
  }, [JSON.stringify({ ...session, expires_at: Math.floor(Date.now() / 1000) + 3600 })]);
  const page = await context.newPage();
  await page.goto(origin + '/dashboard/projects');
  await page.waitForSelector('html[data-app-ready]');
  await page.waitForLoadState('networkidle');
  const copy = await page.evaluate(() => {
    const rules = [...document.styleSheets].flatMap((sheet) => [...sheet.cssRules].map((rule) => rule.cssText)).join('\n');
    const c = document.documentElement.cloneNode(true);
    c.querySelectorAll('script, style, link[rel="stylesheet"], link[rel="modulepreload"], link[rel="expect"]').forEach((n) => n.remove());
    const st = document.createElement('style'); st.textContent = rules; c.querySelector('head').append(st);
    return `<!doctype html>${c.outerHTML}`;
  });
  write(copy);
  const measure = async (path) => {
    const out = [];
    for (let i = 0; i < 5; i++) {
      await page.goto(origin + path);
      if (!path.startsWith('/probe')) await page.waitForSelector('html[data-app-ready]');
      out.push(await page.evaluate(() => { const n = performance.getEntriesByType('navigation')[0]; const fcp = performance.getEntriesByName('first-contentful-paint')[0]; return [Math.round(n.responseEnd), Math.round(n.domInteractive), Math.round(fcp?.startTime ?? -1), n.decodedBodySize]; }));
    }
    return out;
  };
  console.log('static   [responseEnd, domInteractive, FCP, bytes]', JSON.stringify(await measure(STATIC)));
  console.log('app page [responseEnd, domInteractive, FCP, bytes]', JSON.stringify(await measure('/dashboard/projects')));
} finally { await app.stop(); }
