import { chromium } from '@playwright/test';
const base = 'http://127.0.0.1:18765';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
for (const path of process.argv.slice(2)) {
  const page = await browser.newPage();
  const logs = [];
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') logs.push(`${m.type()}: ${m.text().slice(0, 300)}`); });
  page.on('pageerror', (e) => logs.push(`pageerror: ${e.message.slice(0, 300)}`));
  await page.addInitScript(() => {
    window.__cls = 0;
    new PerformanceObserver((list) => { for (const e of list.getEntries()) if (!e.hadRecentInput) { window.__cls += e.value; (window.__shifts ??= []).push(e.sources?.map(s => s.node?.nodeName + '.' + (s.node?.className?.baseVal ?? s.node?.className) + ' ' + JSON.stringify(s.previousRect) + '->' + JSON.stringify(s.currentRect))); } }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto(base + path);
  await page.waitForSelector('html[data-app-ready]', { timeout: 20000 }).catch(() => logs.push('never ready'));
  await page.waitForTimeout(1500);
  const r = await page.evaluate(() => ({ cls: window.__cls, shifts: window.__shifts, fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime, url: location.pathname }));
  console.log(path, JSON.stringify(r), logs);
  await page.close();
}
await browser.close();
