import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectNoSeriousA11yViolations, snapWidths, withCookieChoice, openReady } from './support';

// The public /updates section (tabs, three articles, the comparison table) and the /vibe-loop guide.

const ARTICLES = [
  { path: '/updates/vibe-coding-apps', title: 'The security holes AI coding tools leave behind, and how to close them' },
  { path: '/updates/vibe-friendly-testing', title: 'Testing that fits vibe coding' },
  { path: '/updates/vibe-competitors-comparison', title: 'vibeeval and ten other website security tools, compared' },
] as const;

test.beforeEach(async ({ page }) => {
  await withCookieChoice(page);
  await page.setViewportSize({ width: 1280, height: 900 });
});

/** No page-level horizontal scroll on a 375 px phone, and no serious accessibility problem there either. */
async function expectNoOverflowAt375(page: Page) {
  const original = page.viewportSize();
  await page.setViewportSize({ width: 375, height: 812 });
  await expect.poll(() => page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
  // What scrolls sideways on a phone (tables, code) must still be reachable with the keyboard.
  await expectNoSeriousA11yViolations(page);
  if (original) await page.setViewportSize(original);
}

/** Accessibility, phone-width overflow and the two screenshots every public route gets. */
async function checkPage(page: Page, name: string) {
  await expectNoSeriousA11yViolations(page);
  await expectNoOverflowAt375(page);
  // From the top: a scrolled page draws the sticky top bar mid-image in a full-page screenshot.
  await page.evaluate('window.scrollTo(0, 0)');
  await snapWidths(page, name);
}

const featureRows = (page: Page) => page.getByTestId('feature-row');
const rowNames = (page: Page) => featureRows(page).locator('th').locator('p:first-child').allInnerTexts();
const tab = (scope: Page | Locator, name: string) => scope.getByRole('tab', { name, exact: true });

test('updates: Articles by default, Release Notes and Webinars follow the address', async ({ page }) => {
  await openReady(page, '/updates');
  await expect(page.getByRole('heading', { level: 1, name: 'Updates' })).toBeVisible();
  await expect(page).toHaveTitle('Updates | vibeeval');
  await expect(tab(page, 'Articles')).toHaveAttribute('aria-selected', 'true');

  const cards = page.getByTestId('article-card');
  await expect(cards).toHaveCount(3);
  for (const article of ARTICLES) {
    await expect(page.getByRole('link', { name: article.title })).toHaveAttribute('href', article.path);
  }
  await expect(cards.first()).toContainText('min read');
  await expect(cards.first().locator('time')).toHaveAttribute('datetime', /^2026-\d\d-\d\d$/);
  await checkPage(page, 'updates');

  await tab(page, 'Release Notes').click();
  await expect(page).toHaveURL(/\/updates\?tab=release-notes$/);
  await expect(page.getByRole('heading', { level: 2, name: 'vibeeval 1.0.0' })).toBeVisible();
  const notes = page.getByTestId('release-notes');
  for (const text of ['47 checks in 12 families', 'SARIF 2.1.0', 'CVE-2025-48757', 'polyfill.io', '--fail-on high', 'axe-core', 'Coming in later releases']) {
    await expect(notes).toContainText(text);
  }
  await expect(page.getByRole('link', { name: ARTICLES[0].title })).toBeHidden();
  await checkPage(page, 'updates-release-notes');

  await tab(page, 'Webinars').click();
  await expect(page).toHaveURL(/\/updates\?tab=webinars$/);
  const webinars = page.getByTestId('webinar');
  await expect(webinars.first()).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Securing a Lovable app before launch' })).toBeVisible();
  await expect(page.locator('[data-testid="webinar"][data-status="upcoming"]').first()).toContainText('Upcoming');
  await expect(page.locator('[data-testid="webinar"][data-status="recorded"]').first()).toContainText('Recorded');
  await expect(page.getByRole('link', { name: 'Register by email: Securing a Lovable app before launch' })).toHaveAttribute(
    'href',
    `mailto:support@vibe-eval.com?subject=${encodeURIComponent('Webinar registration: Securing a Lovable app before launch')}`,
  );
  // No recording links: every action in the list is an email.
  const links = await page.getByTestId('webinars').getByRole('link').all();
  expect(links.length).toBeGreaterThanOrEqual(3);
  for (const link of links) expect(await link.getAttribute('href')).toMatch(/^mailto:support@vibe-eval\.com\?subject=/);
  await checkPage(page, 'updates-webinars');

  // Back to Articles drops the parameter; a linked tab opens directly.
  await tab(page, 'Articles').click();
  await expect(page).toHaveURL(/\/updates$/);
  await expect(page.getByTestId('article-card')).toHaveCount(3);
  await openReady(page, '/updates?tab=webinars');
  await expect(tab(page, 'Webinars')).toHaveAttribute('aria-selected', 'true');
  await openReady(page, '/updates?tab=nonsense');
  await expect(tab(page, 'Articles')).toHaveAttribute('aria-selected', 'true');

  // A card opens its article, and the article leads back.
  await page.getByRole('link', { name: ARTICLES[1].title }).click();
  await expect(page).toHaveURL(ARTICLES[1].path);
  await expect(page.getByRole('heading', { level: 1, name: ARTICLES[1].title })).toBeVisible();
});

const KEY_TEXTS: Record<string, string[]> = {
  '/updates/vibe-coding-apps': [
    'Supabase tables readable with the anon key',
    'CVE-2025-48757',
    'Row Level Security (RLS)',
    'The service_role key in the bundle',
    'sb_secret_',
    'sk_live_',
    'A served .env file, .git folder or AI-tool notes',
    'Source maps in production',
    'Missing security headers',
    'Strict-Transport-Security',
    'polyfill.io',
  ],
  '/updates/vibe-friendly-testing': [
    'Describe behaviour in plain English',
    'real Chromium browser driven by Playwright',
    'Scan on every deploy',
    '--fail-on',
    'SARIF 2.1.0',
    'github/codeql-action/upload-sarif',
    'Watch the live site between deploys',
    'at least 5 minutes between checks, at most 12 runs per day',
  ],
  '/updates/vibe-competitors-comparison': [
    'How we compared',
    'Feature comparison',
    'Based on public documentation as of November 2026; vendor claims are not independently verified.',
    'Where vibeeval fits, and where it does not',
  ],
};

test('articles: key texts, back to Updates, previous and next', async ({ page }) => {
  for (const [index, article] of ARTICLES.entries()) {
    await page.goto(article.path);
    const heading = page.getByRole('heading', { level: 1, name: article.title });
    await expect(heading).toBeVisible();
    await expect(page).toHaveTitle(`${article.title} | vibeeval`);
    const body = page.locator('article');
    for (const text of KEY_TEXTS[article.path] ?? []) await expect(body, text).toContainText(text);
    await expect(body.locator('time').first()).toHaveAttribute('datetime', /^2026-11-\d\d$/);
    // Substantive: 800 words or more of article text.
    const words = (await body.innerText()).split(/\s+/).filter(Boolean).length;
    expect(words, `${article.path} words`).toBeGreaterThanOrEqual(800);

    const more = page.getByRole('navigation', { name: 'More articles' });
    const previous = ARTICLES[index - 1];
    const next = ARTICLES[index + 1];
    if (previous) await expect(more.getByRole('link', { name: previous.title })).toHaveAttribute('href', previous.path);
    await expect(more.getByText('Previous article')).toHaveCount(previous ? 1 : 0);
    if (next) await expect(more.getByRole('link', { name: next.title })).toHaveAttribute('href', next.path);
    await expect(more.getByText('Next article')).toHaveCount(next ? 1 : 0);

    await checkPage(page, `article-${article.path.split('/').pop()}`);

    await page.getByRole('link', { name: 'Back to Updates' }).first().click();
    await expect(page).toHaveURL(/\/updates$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Updates' })).toBeVisible();
  }

  // Next, next, previous: the links move through the series.
  await openReady(page, ARTICLES[0].path);
  await page.getByRole('navigation', { name: 'More articles' }).getByRole('link', { name: ARTICLES[1].title }).click();
  await expect(page.getByRole('heading', { level: 1, name: ARTICLES[1].title })).toBeVisible();
  await page.getByRole('navigation', { name: 'More articles' }).getByRole('link', { name: ARTICLES[2].title }).click();
  await expect(page.getByRole('heading', { level: 1, name: ARTICLES[2].title })).toBeVisible();
  await page.getByRole('navigation', { name: 'More articles' }).getByRole('link', { name: ARTICLES[1].title }).click();
  await expect(page).toHaveURL(ARTICLES[1].path);
});

test('comparison table: 11 tools, search, category tabs, sort by feature, sticky first column', async ({ page }) => {
  await openReady(page, '/updates/vibe-competitors-comparison');
  const table = page.getByRole('table');
  await expect(table.locator('caption')).toContainText('Feature comparison of vibeeval and ten other website security tools');

  const columns = page.getByTestId('tool-column');
  await expect(columns).toHaveCount(11);
  expect(await columns.allInnerTexts()).toEqual([
    'vibeeval',
    'OWASP ZAP',
    'MDN HTTP Observatory',
    'Nuclei',
    'Burp Suite Professional',
    'Snyk',
    'VibeAppScanner',
    'FixVibe',
    'VibeArmor',
    'SecuriSky',
    'Lovable Security Scan',
  ]);

  // Every cell says Yes, Partial or No in text.
  const all = await featureRows(page).count();
  expect(all).toBeGreaterThanOrEqual(15);
  expect(all).toBeLessThanOrEqual(22);
  const cells = featureRows(page).locator('td');
  await expect(cells).toHaveCount(all * 11);
  for (const text of await cells.allInnerTexts()) expect(['Yes', 'Partial', 'No']).toContain(text.trim());
  await expect(tab(page, 'All')).toHaveAttribute('aria-selected', 'true');

  // Category tabs.
  const counts: Record<string, number> = {};
  for (const name of ['Security', 'Integration', 'Usability']) {
    await tab(page, name).click();
    await expect(tab(page, name)).toHaveAttribute('aria-selected', 'true');
    counts[name] = await featureRows(page).count();
    expect(counts[name], name).toBeGreaterThan(0);
    expect(counts[name], name).toBeLessThan(all);
    for (const category of await featureRows(page).locator('th p:last-child').allInnerTexts()) expect(category).toBe(name);
  }
  expect(counts.Security! + counts.Integration! + counts.Usability!).toBe(all);
  await tab(page, 'All').click();
  await expect(featureRows(page)).toHaveCount(all);

  // Search, case-insensitive, and the empty message.
  const search = page.getByRole('searchbox', { name: 'Search features' });
  await search.fill('sArIf');
  await expect(featureRows(page)).toHaveCount(1);
  await expect(featureRows(page).first()).toContainText('SARIF output');
  await search.fill('supabase');
  await expect(featureRows(page)).toHaveCount(1);
  await search.fill('no such feature');
  await expect(featureRows(page)).toHaveCount(0);
  await expect(page.getByText('No features match')).toBeVisible();
  await page.getByRole('button', { name: 'Clear search' }).click();
  await expect(search).toHaveValue('');
  await expect(featureRows(page)).toHaveCount(all);
  // Search and category combine: SARIF is not a usability feature.
  await search.fill('sarif');
  await tab(page, 'Usability').click();
  await expect(page.getByText('No features match')).toBeVisible();
  await tab(page, 'Integration').click();
  await expect(featureRows(page)).toHaveCount(1);
  await search.fill('');
  await tab(page, 'All').click();

  // Sorting by the Feature header.
  const header = page.getByRole('columnheader', { name: 'Feature' });
  await expect(header).toHaveAttribute('aria-sort', 'none');
  const sortButton = header.getByRole('button', { name: 'Feature' });
  await sortButton.click();
  await expect(header).toHaveAttribute('aria-sort', 'ascending');
  const ascending = await rowNames(page);
  expect(ascending).toHaveLength(all);
  expect(ascending).toEqual([...ascending].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })));
  expect(ascending[0]!.localeCompare(ascending.at(-1)!, 'en')).toBeLessThan(0);
  await sortButton.press('Enter');
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  const descending = await rowNames(page);
  expect(descending[0]).toBe(ascending.at(-1));
  expect(descending.at(-1)).toBe(ascending[0]);
  await sortButton.click();
  await expect(header).toHaveAttribute('aria-sort', 'ascending');
  expect((await rowNames(page))[0]).toBe(ascending[0]);

  // The search box, tabs and sort button are reachable with the keyboard.
  await search.focus();
  await expect(search).toBeFocused();
  await tab(page, 'All').focus();
  await page.keyboard.press('ArrowRight');
  await expect(tab(page, 'Security')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(tab(page, 'Security')).toHaveAttribute('aria-selected', 'true');
  await tab(page, 'All').click();

  await checkPage(page, 'article-comparison-table');

  // On a phone the table scrolls inside its own box and the Feature column stays put.
  await page.setViewportSize({ width: 375, height: 812 });
  const region = page.getByRole('region', { name: 'Feature comparison of vibeeval and ten other website security tools' });
  await region.scrollIntoViewIfNeeded();
  const firstCell = featureRows(page).first().locator('th');
  const before = await firstCell.boundingBox();
  // A string, not a function: this file is type-checked without the DOM library.
  const scrolled = await page.evaluate<number>(
    `(() => { const box = document.querySelector('[data-testid="comparison-scroll"]'); box.scrollLeft = 600; return box.scrollLeft; })()`,
  );
  expect(scrolled).toBeGreaterThan(0);
  const after = await firstCell.boundingBox();
  expect(after?.x).toBeCloseTo(before?.x ?? -1, 0);
  expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
});

test('vibe loop: Live Browser Demo, the script tag, the limits and a live hash', async ({ page }) => {
  await openReady(page, '/vibe-loop');
  await expect(page.getByRole('heading', { level: 1, name: 'Vibe Loop' })).toBeVisible();
  await expect(page).toHaveTitle('Vibe Loop | vibeeval');
  await expect(page.getByText('Live Browser Demo').first()).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Live Browser Demo' })).toBeVisible();

  const origin = new URL(page.url()).origin;
  await expect(page.getByTestId('script-tag')).toHaveText(`<script src="${origin}/latest.js" data-site="YOUR_SITE_TOKEN" async></script>`);
  await expect(page.getByTestId('site-token-hint')).toContainText('Installation tab');
  await expect(page.getByRole('link', { name: 'Continuous Testing' })).toHaveAttribute('href', '/dashboard/continuous-testing?tab=installation');

  const main = page.getByRole('main');
  for (const text of ['5 minutes', '300000 ms', '12 runs', 'midnight UTC', '24 hours', 'FNV-1a', 'localStorage', 'POST /continuous-testing']) {
    await expect(main, text).toContainText(text);
  }
  await expect(main).toContainText("Only the content hash and the site's hostname");

  // The live hash: a real edit changes it, whitespace does not; storing it makes the page "unchanged" again.
  const input = page.getByRole('textbox', { name: 'Page content' });
  const hash = page.getByTestId('live-hash');
  const status = page.getByTestId('demo-status');
  const initial = await hash.innerText();
  expect(initial).toMatch(/^0x[0-9a-f]{8}$/);
  await expect(status).toContainText('Unchanged');

  await input.fill('Hello world');
  await expect(hash).toHaveText('0x594d29c7');
  await expect(status).toContainText('Changed');
  await input.fill('  Hello \n\n   world  ');
  await expect(hash).toHaveText('0x594d29c7');
  await input.fill('Hello world!');
  await expect(hash).not.toHaveText('0x594d29c7');
  await input.fill('');
  await expect(hash).toHaveText('0x811c9dc5');
  await input.pressSequentially('foobar');
  await expect(hash).toHaveText('0xbf9cf968');

  await page.getByRole('button', { name: 'Store this hash' }).click();
  await expect(page.getByTestId('stored-hash')).toHaveText('0xbf9cf968');
  await expect(status).toContainText('Unchanged');
  await expect(page.getByRole('button', { name: 'Store this hash' })).toBeDisabled();
  await page.getByRole('button', { name: 'Reset demo' }).click();
  await expect(hash).toHaveText(initial);

  // The FAQ opens with the keyboard.
  const performance = page.getByRole('button', { name: 'Will it slow my site down?' });
  await performance.focus();
  await page.keyboard.press('Enter');
  await expect(main).toContainText('loads with async');

  await checkPage(page, 'vibe-loop');
});
