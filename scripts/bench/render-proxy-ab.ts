// What the browser's policy proxy costs a render: the same 10 pages of the generated fixture loaded by a browser
// launched directly and by one behind the policy proxy (both with the request guard render() installs), alternating in one process so both see the same machine load.
// Run: npx esbuild scripts/bench/render-proxy-ab.ts --bundle --platform=node --packages=external --log-level=warning \
//        --outfile=node_modules/.cache/render-proxy-ab.cjs && VIBEEVAL_FIXTURES_DIR=$PWD/tests/fixtures node node_modules/.cache/render-proxy-ab.cjs [rounds]
import type { Browser } from 'playwright-core';
import { findChromium, launchChromium, launchPolicedChromium } from '../../engine/browser';
import { startFixtureSite } from '../../tests/fixtures/sites';

const PAGES = 10;

async function loadPages(launch: () => Promise<Browser>, urls: string[]): Promise<number> {
  const t0 = performance.now();
  const browser = await launch();
  try {
    const context = await browser.newContext({ serviceWorkers: 'block' });
    // Both arms keep the render's request guard, as render() and the audits do.
    await context.route('**/*', (route) => route.continue());
    const page = await context.newPage();
    for (const url of urls) await page.goto(url, { waitUntil: 'load' });
  } finally {
    await browser.close();
  }
  return performance.now() - t0;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function main(rounds: number): Promise<void> {
  const chromium = findChromium();
  if (chromium.path === null) throw new Error(chromium.reason);
  const site = await startFixtureSite('generated', { pages: 100 });
  const urls = Array.from({ length: PAGES }, (_, i) => (i === 0 ? site.url : `${site.origin}/page/${i}`));
  const direct: number[] = [];
  const proxied: number[] = [];
  await loadPages(() => launchChromium(chromium.path), urls); // warm the disk cache
  for (let i = 0; i < rounds; i++) {
    direct.push(await loadPages(() => launchChromium(chromium.path), urls));
    proxied.push(await loadPages(async () => (await launchPolicedChromium(chromium.path, { allowPrivate: true })).browser, urls));
  }
  await site.close();
  const d = median(direct);
  const p = median(proxied);
  console.log(`${PAGES} pages, ${rounds} alternating rounds: direct median ${Math.round(d)} ms, behind the policy proxy median ${Math.round(p)} ms, ratio ${(p / d).toFixed(2)}`);
  console.log(`direct  : ${direct.map(Math.round).join(' ')}`);
  console.log(`proxied : ${proxied.map(Math.round).join(' ')}`);
}

void main(Math.max(3, Number(process.argv[2] ?? 9) || 9));
