import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium, launchChromium } from '../browser';
import { renderHtml } from './html';
import { hostileFinding, loadSampleResult, sampleCoverage } from './__fixtures__/load';

// Screenshots of the sample report for review, in the folder the Playwright tests use.
const SCREENS = join(__dirname, '..', '..', 'test-results', 'screens');
const lookup = findChromium();

// The node tsconfig has no DOM types: the page functions name the little they use.
type PageGlobals = {
  document: { documentElement: { scrollWidth: number } };
  getComputedStyle(element: unknown): { backgroundColor: string };
};

if (lookup.path === null) console.log(`Skipping report screenshots: ${lookup.reason}`);

describe.skipIf(lookup.path === null)('HTML report in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium(lookup.path!);
    mkdirSync(SCREENS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it.each([
    [1280, 'report-sample.png'],
    [375, 'report-sample-375.png'],
  ])('lays out at %i px without horizontal scrolling', async (width, file) => {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    // With a coverage section holding long origins and URLs, which must wrap too.
    await page.setContent(renderHtml({ ...loadSampleResult(), coverage: sampleCoverage() }), { waitUntil: 'load' });
    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    // Severity colours: critical red, medium yellow, passed green.
    const colour = (selector: string) =>
      page
        .locator(selector)
        .first()
        .evaluate((el) => (globalThis as unknown as PageGlobals).getComputedStyle(el).backgroundColor);
    expect(await colour('.badge.sev-critical')).toBe('rgb(185, 28, 28)');
    expect(await colour('.badge.not-checked')).toBe('rgb(254, 240, 138)');
    expect(await colour('.badge.sev-medium')).toBe('rgb(234, 179, 8)');
    expect(await colour('.badge.passed')).toBe('rgb(21, 128, 61)');
    await page.screenshot({ path: join(SCREENS, file), fullPage: true });
    await page.close();
  });

  it('keeps hostile evidence inert when the report is opened with scripts enabled', async () => {
    const page = await browser.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    const result = loadSampleResult();
    await page.setContent(renderHtml({ ...result, findings: [hostileFinding()] }), { waitUntil: 'load' });
    expect(await page.locator('script, img, iframe').count()).toBe(0);
    expect(await page.locator('pre.match').textContent()).toBe('<script>alert(5)</script>');
    expect(dialogs).toEqual([]);
    expect(requests.filter((url) => !url.startsWith('about:') && !url.startsWith('data:'))).toEqual([]);
    await page.close();
  });
});
