import { chromium } from '@playwright/test';
const base = 'http://127.0.0.1:18765';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
for (const js of [false, true]) for (const path of ['/', '/login', '/terms', '/', '/login']) {
  const ctx = await browser.newContext({ javaScriptEnabled: js });
  const page = await ctx.newPage();
  const t0 = Date.now();
  await page.goto(base + path, { waitUntil: 'load' });
  await page.waitForTimeout(300);
  const fcp = await page.evaluate('performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? -1').catch(() => 'n/a');
  const nav = await page.evaluate('JSON.stringify(performance.getEntriesByType("navigation")[0].toJSON(), ["responseEnd","domInteractive","domContentLoadedEventEnd","loadEventEnd"])').catch(() => 'n/a');
  console.log(js ? 'js ' : 'nojs', path, fcp, nav, Date.now() - t0);
  await ctx.close();
}
await browser.close();
