// Where a warm signed-in visit of /dashboard/projects (or, with --project, a project's page) spends its time: its
// navigation timing, when each request started and ended, the data's first frame, and a trace of the page's main
// thread summarised (time per kind of task, the tasks over 3 ms). `--blank` visits about:blank first, so the
// measured load does not tear down the previous app page. Run after `npm run build`:
//   node scripts/bench/probe-dashboard.mjs [--project] [--blank] [--root <checkout>] [--browser shell|full]
/* global window, document, location, MutationObserver -- in the functions evaluated in the page */
import { benchOptions, servedApp } from './served-app.mjs';
const { root, browser: kind } = benchOptions('probe', { runs: 1 });
const app = await servedApp({ root, name: 'probe', browser: kind });
const { origin } = app;
try {
  const browser = await app.start();
  const headers = { 'content-type': 'application/json', apikey: 'local' };
  const email = `probe-${Date.now()}@example.com`,
    password = 'probe-pass-1';
  await fetch(`${origin}/auth/v1/signup`, { method: 'POST', headers, body: JSON.stringify({ email, password }) });
  const session = await (await fetch(`${origin}/auth/v1/token?grant_type=password`, { method: 'POST', headers, body: JSON.stringify({ email, password }) })).json();
  let projectId;
  for (let i = 2; i >= 1; i--) {
    const r = await fetch(`${origin}/project`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${session.access_token}` },
      body: JSON.stringify({ url: `https://bench-${i}.example.com/`, instruction_text: `Bench ${i}`, num_pages: 1 }),
    });
    projectId = (await r.json()).id;
  }
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript(
    ([s]) => {
      if (!localStorage.getItem('vibeeval-auth-token')) localStorage.setItem('vibeeval-auth-token', s);
      localStorage.setItem('cookie-consent', JSON.stringify({ necessary: true, analytics: false, marketing: false }));
      window.__seen = {};
      new MutationObserver(() => {
        if (!window.__seen.card && document.querySelector('[data-testid="project-card"]')) window.__seen.card = performance.now();
        if (!window.__seen.url && !document.querySelector('[data-testid="project-card"]') && document.body?.textContent.includes('bench-1.example.com'))
          window.__seen.url = performance.now();
      }).observe(document, { childList: true, subtree: true });
    },
    [JSON.stringify({ ...session, expires_at: Math.floor(Date.now() / 1000) + 3600 })],
  );
  const page = await context.newPage();
  const path = process.argv.includes('--project') ? `/dashboard/projects/${projectId}` : '/dashboard/projects';
  const key = process.argv.includes('--project') ? 'url' : 'card';
  for (let i = 0; i < 3; i++) {
    await page.goto(origin + path);
    await page.waitForFunction((k) => window.__seen?.[k], key);
  }
  await page.waitForTimeout(300);
  if (process.argv.includes('--blank')) await page.goto('about:blank');
  await browser.startTracing(page, { categories: ['devtools.timeline', 'v8', 'disabled-by-default-devtools.timeline', 'blink.user_timing', 'loading'] });
  await page.goto(origin + path);
  await page.waitForFunction((k) => window.__seen?.[k], key);
  const seen = await page.evaluate((k) => window.__seen[k], key);
  const res = await page.evaluate(() =>
    performance.getEntriesByType('resource').map((e) => ({ n: e.name.replace(location.origin, ''), s: Math.round(e.startTime), e: Math.round(e.responseEnd), t: e.initiatorType })),
  );
  const nav = await page.evaluate(() => {
    const n = performance.getEntriesByType('navigation')[0];
    return { req: n.requestStart, rs: n.responseStart, re: n.responseEnd, di: n.domInteractive, dcl: n.domContentLoadedEventStart, size: n.transferSize, body: n.decodedBodySize };
  });
  console.log('navigation', JSON.stringify(nav));
  const trace = JSON.parse((await browser.stopTracing()).toString());
  console.log('data on screen at', Math.round(seen), 'ms');
  const scripts = res.filter((r) => r.n.endsWith('.js'));
  console.log('scripts', scripts.length, 'first start', scripts[0]?.s, 'last end', Math.max(...scripts.map((r) => r.e)));
  for (const r of res.filter((r) => !r.n.endsWith('.js') || r.n.includes('index') || r.n.includes('page') || r.n.includes('before-app') || r.n.includes('start-after')))
    console.log('  ', r.s, r.e, r.t, r.n.slice(0, 90));
  // Main thread (renderer main) top-level tasks, in ms since navigation start.
  const events = trace.traceEvents;
  const nameOf = {};
  for (const e of events) if (e.name === 'thread_name') nameOf[`${e.pid}:${e.tid}`] = e.args.name;
  const main = Object.keys(nameOf).filter((k) => nameOf[k] === 'CrRendererMain');
  const nav0 = events.find((e) => e.name === 'navigationStart' && main.includes(`${e.pid}:${e.tid}`))?.ts ?? events.find((e) => e.name === 'navigationStart')?.ts;
  const byName = {};
  const timeline = [];
  for (const e of events) {
    if (!main.includes(`${e.pid}:${e.tid}`) || e.ph !== 'X' || !e.dur) continue;
    if (
      [
        'EvaluateScript',
        'v8.compileModule',
        'v8.evaluateModule',
        'FunctionCall',
        'ParseHTML',
        'Layout',
        'UpdateLayoutTree',
        'Paint',
        'v8.compile',
        'RunMicrotasks',
        'TimerFire',
        'EventDispatch',
        'XHRReadyStateChange',
        'ResourceReceivedData',
        'v8.parseOnBackground',
        'v8.produceModuleCache',
        'v8.produceCache',
        'PrePaint',
        'Commit',
        'MajorGC',
        'MinorGC',
        'ScheduleStyleRecalculation',
        'ParseAuthorStyleSheet',
        'v8.run',
      ].includes(e.name)
    ) {
      byName[e.name] = (byName[e.name] ?? 0) + e.dur / 1000;
    }
    if (e.name === 'RunTask' && e.dur > 3000) timeline.push([Math.round((e.ts - nav0) / 1000), Math.round(e.dur / 1000)]);
  }
  console.log(
    'main thread totals (ms, nested counted):',
    Object.fromEntries(
      Object.entries(byName)
        .map(([k, v]) => [k, Math.round(v)])
        .sort((a, b) => b[1] - a[1]),
    ),
  );
  console.log('tasks > 3 ms [start, dur]:', JSON.stringify(timeline.filter(([s]) => s >= 0 && s < seen + 50)));
} finally {
  await app.stop();
}
