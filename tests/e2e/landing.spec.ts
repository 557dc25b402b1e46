import { expect, test, type Page } from '@playwright/test';
import { CHECKOUT_LINKS, CONTACT, COOKIE_CONSENT_KEY, MARKETING_PLANS, MARKETING_TIMING, mailto } from '../../common/marketing';
import { expectNoSeriousA11yViolations, snap, snapWidths, openReady } from './support';

// Functions passed to evaluate run in the page; the tests' tsconfig has no DOM types, hence these shapes.
interface PageWindow {
  localStorage: { getItem(key: string): string | null; setItem(key: string, value: string): void };
  document: { documentElement: { scrollWidth: number } };
  scrollTo(x: number, y: number): void;
}
type Box = { getBoundingClientRect(): { top: number }; offsetWidth: number };

const storedConsent = (page: Page) => page.evaluate((key) => (globalThis as unknown as PageWindow).localStorage.getItem(key), COOKIE_CONSENT_KEY);
const scrollWidth = (page: Page) => page.evaluate(() => (globalThis as unknown as PageWindow).document.documentElement.scrollWidth);
const logoOffset = async (page: Page) => Number(await page.getByTestId('tool-logos-track').getAttribute('data-offset'));

/**
 * Fake timers, stopped before the page loads: from here only runFor moves time, so the banner delay and the
 * strip's steps are counted exactly (the page itself renders without timers).
 */
async function stopClock(page: Page) {
  const start = new Date('2026-03-02T10:00:00Z').getTime();
  await page.clock.install({ time: start });
  await page.clock.pauseAt(start + 1000);
}

/** Stores a consent before any script runs, so the banner stays away (screenshots, layout checks). */
const withConsent = (page: Page) =>
  page.addInitScript(
    (key) => (globalThis as unknown as PageWindow).localStorage.setItem(key, JSON.stringify({ necessary: true, analytics: false, marketing: false })),
    COOKIE_CONSENT_KEY,
  );

test('the landing page shows its sections in order, one h1 then h2s', async ({ page }) => {
  await withConsent(page);
  await openReady(page, '/');
  await expect(page).toHaveTitle('vibeeval');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Find the security holes in your AI-built app before anyone else does');
  await expect(page.getByTestId('url-test')).toBeAttached();

  const h2s = await page.getByRole('heading', { level: 2 }).allTextContents();
  expect(h2s).toEqual([
    // The hero's sample report card (URL test).
    'Website Security Report',
    'Scans apps built with any AI coding tool',
    'What vibeeval finds in AI-built apps',
    'Simple plans, every check included',
    'Holes found before anyone else found them',
  ]);
  await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);

  // The tool strip: each tool has a name, once for assistive technology (the moving copy is hidden).
  const strip = page.getByRole('region', { name: 'Scans apps built with any AI coding tool' });
  for (const tool of ['Lovable', 'Bolt', 'v0', 'Cursor', 'Replit', 'Windsurf', 'Claude Code', 'Base44', 'Supabase', 'Firebase']) {
    await expect(strip.getByRole('listitem').filter({ hasText: new RegExp(`^${tool}$`) })).toHaveCount(1);
  }
  await expect(page.locator('[data-copy="duplicate"]')).toHaveAttribute('aria-hidden', 'true');

  // Testimonials and the membership badge.
  await expect(page.locator('figure blockquote')).toHaveCount(4);
  await expect(page.getByText('Priya Nair')).toBeVisible();
  const owasp = page.getByRole('link', { name: 'Member of the OWASP Foundation' });
  await expect(owasp).toHaveAttribute('href', 'https://owasp.org');
  await expect(owasp).toHaveAttribute('target', '_blank');
});

test('the carousel changes slides with its buttons, dots and arrow keys', async ({ page }) => {
  await withConsent(page);
  await openReady(page, '/');
  // The prerendered carousel shows before the app runs; its buttons act once it does.
  await expect(page.locator('html[data-app-ready]')).toHaveCount(1);
  const carousel = page.getByRole('region', { name: 'Examples of findings' });
  await expect(carousel).toHaveAttribute('aria-roledescription', 'carousel');
  const current = carousel.locator('[aria-roledescription="slide"]:not([aria-hidden])');
  await expect(carousel.locator('[aria-roledescription="slide"]')).toHaveCount(5);

  await expect(current).toHaveAttribute('aria-label', '1 of 5');
  await expect(current.getByRole('heading', { level: 3 })).toHaveText('Supabase tables readable by anyone');

  await carousel.getByRole('button', { name: 'Next slide' }).click();
  await expect(current.getByRole('heading', { level: 3 })).toHaveText('Secrets in your JavaScript bundle');
  await expect(carousel.getByRole('button', { name: /^Slide 2:/ })).toHaveAttribute('aria-current', 'true');

  await page.keyboard.press('ArrowRight');
  await expect(current.getByRole('heading', { level: 3 })).toHaveText('Security headers graded like HTTP Observatory');

  await carousel.getByRole('button', { name: 'Slide 4: Reports your clients can read' }).click();
  await expect(current).toHaveAttribute('aria-label', '4 of 5');

  await carousel.getByRole('button', { name: 'Next slide' }).click();
  await expect(current.getByRole('heading', { level: 3 })).toHaveText('Tests that run in a real browser');
  // It wraps around both ways.
  await carousel.getByRole('button', { name: 'Next slide' }).click();
  await expect(current).toHaveAttribute('aria-label', '1 of 5');
  await carousel.getByRole('button', { name: 'Previous slide' }).focus();
  await page.keyboard.press('Enter');
  await expect(current).toHaveAttribute('aria-label', '5 of 5');
  await page.keyboard.press('ArrowLeft');
  await expect(current).toHaveAttribute('aria-label', '4 of 5');
});

test('pricing: the three plans from the constants, checkout links outside the app, a line for teams', async ({ page }) => {
  await withConsent(page);
  await openReady(page, '/');
  const pricing = page.locator('#pricing');
  for (const text of ['$7', '$15', '$149']) await expect(pricing.getByText(text, { exact: true })).toBeVisible();
  await expect(pricing.getByText('14-day free trial')).toHaveCount(2);
  await expect(pricing.getByText('30-day money-back guarantee')).toBeVisible();

  const basic = page.getByTestId('plan-basic');
  const pro = page.getByTestId('plan-pro');
  await expect(basic.getByText('2 AI agent scenarios')).toBeVisible();
  await expect(pro.getByText('13 AI agent scenarios')).toBeVisible();
  await expect(page.getByTestId('plan-lifetime').getByText('13 AI agent scenarios')).toBeVisible();

  for (const feature of ['API access', 'CI/CD secret scanning', 'Automated remediation', 'Customizable schedules']) {
    await expect(basic.locator('li[data-included="false"]').filter({ hasText: feature })).toContainText('(not included)');
    await expect(pro.locator('li[data-included="true"]').filter({ hasText: feature })).toHaveCount(1);
  }

  for (const plan of MARKETING_PLANS) {
    await expect(page.getByTestId(`plan-${plan.id}`).getByText(plan.support)).toBeVisible();
    const button = page.getByTestId(`plan-${plan.id}`).getByRole('link', { name: `${plan.cta}: ${plan.name}` });
    await expect(button).toHaveAttribute('href', CHECKOUT_LINKS[plan.id]);
    await expect(button).toHaveAttribute('target', '_blank');
  }

  await expect(pricing.getByRole('link', { name: `Contact ${CONTACT.sales}` })).toHaveAttribute('href', mailto(CONTACT.sales, 'vibeeval for teams'));
});

test("the top bar's Pricing link scrolls the pricing section into view below the bar", async ({ page }) => {
  await withConsent(page);
  await openReady(page, '/');
  // The link is the app's (a client-side navigation that scrolls below the bar) once it runs.
  await expect(page.locator('html[data-app-ready]')).toHaveCount(1);
  await expect(page.locator('#pricing')).not.toBeInViewport();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pricing' }).click();
  await expect(page).toHaveURL(/\/#pricing$/);
  await expect(page.locator('#pricing')).toBeInViewport();
  const top = await page.locator('#pricing').evaluate((el) => (el as unknown as Box).getBoundingClientRect().top);
  expect(top).toBeGreaterThanOrEqual(63);

  // Opening /#pricing directly lands there too.
  await page.goto('/#pricing');
  await expect(page.getByRole('heading', { name: 'Simple plans, every check included' })).toBeInViewport();
});

test('the tool strip moves one step per interval, pauses on hover and focus, and stands still for reduced motion', async ({ page }) => {
  await withConsent(page);
  await stopClock(page);
  await openReady(page, '/');
  await expect(page.getByTestId('tool-logos-track')).toBeVisible();
  await expect(page.locator('html[data-app-ready]')).toHaveCount(1);

  expect(await logoOffset(page)).toBe(0);
  // 300 ms at one step per 30 ms: 10 steps.
  await page.clock.runFor(300);
  expect(await logoOffset(page)).toBe(300 / MARKETING_TIMING.logoStepMs);
  await expect(page.getByTestId('tool-logos-track')).toHaveCSS('transform', /matrix\(1, 0, 0, 1, -\d+/);

  // Hover stops it; leaving starts it again.
  await page.getByTestId('tool-logos').hover();
  const hovered = await logoOffset(page);
  await page.clock.runFor(300);
  expect(await logoOffset(page)).toBe(hovered);
  await page.mouse.move(0, 0);
  await page.clock.runFor(300);
  expect(await logoOffset(page)).toBeGreaterThan(hovered);

  // Focus inside the strip (its pause button) stops it too; the button pauses it for good.
  const pause = page.getByRole('button', { name: 'Pause the logo animation' });
  await pause.focus();
  const focused = await logoOffset(page);
  await page.clock.runFor(300);
  expect(await logoOffset(page)).toBe(focused);
  await pause.click();
  await page.mouse.move(0, 0);
  await page.getByRole('heading', { level: 1 }).click();
  await page.clock.runFor(300);
  expect(await logoOffset(page)).toBe(focused);
  await page.getByRole('button', { name: 'Play the logo animation' }).click();
  await page.mouse.move(0, 0);
  await page.getByRole('heading', { level: 1 }).click();
  await page.clock.runFor(300);
  expect(await logoOffset(page)).toBeGreaterThan(focused);

  // Reduced motion: no moving track at all; the names wrap in place.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await expect(page.getByTestId('tool-logos-track')).toHaveCount(0);
  await expect(page.getByRole('listitem').filter({ hasText: /^Windsurf$/ })).toBeVisible();
});

test('the strip loops seamlessly: the offset wraps at one list width', async ({ page }) => {
  await withConsent(page);
  await stopClock(page);
  await openReady(page, '/');
  await expect(page.getByTestId('tool-logos-track')).toBeVisible();
  await expect(page.locator('html[data-app-ready]')).toHaveCount(1);
  const width = await page.locator('[data-copy="original"]').evaluate((el) => (el as unknown as Box).offsetWidth);
  await page.clock.runFor((width + 5) * MARKETING_TIMING.logoStepMs);
  const offset = await logoOffset(page);
  expect(offset).toBeLessThan(width);
  expect(offset).toBeGreaterThanOrEqual(0);
});

test('the cookie banner appears after a second when no choice is stored; Accept all stores every category', async ({ page }) => {
  await stopClock(page);
  await openReady(page, '/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // The prerendered heading shows before the app runs: its timers start once it does.
  await expect(page.locator('html[data-app-ready]')).toHaveCount(1);
  const banner = page.getByRole('region', { name: 'We use cookies' });
  await expect(banner).toHaveCount(0);
  expect(await storedConsent(page)).toBeNull();
  await page.clock.runFor(MARKETING_TIMING.consentBannerDelayMs - 1);
  await expect(banner).toHaveCount(0);

  await page.clock.runFor(1);
  await expect(banner).toBeVisible();
  await expect(banner).toContainText('enhance your browsing experience');
  await expect(banner).toContainText('analyse site traffic');
  await expect(banner).toContainText('personalized content');
  await expect(banner.getByRole('button', { name: 'Close' })).toBeVisible();

  await banner.getByRole('button', { name: 'Accept all' }).click();
  await expect(banner).toHaveCount(0);
  expect(JSON.parse((await storedConsent(page))!)).toEqual({ necessary: true, analytics: true, marketing: true });

  // A stored choice keeps the banner away.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // The prerendered heading shows before the app runs: its timers start once it does.
  await expect(page.locator('html[data-app-ready]')).toHaveCount(1);
  await page.clock.runFor(MARKETING_TIMING.consentBannerDelayMs * 3);
  await expect(banner).toHaveCount(0);
});

test('Reject non-essential stores only the necessary category', async ({ page }) => {
  await stopClock(page);
  await openReady(page, '/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // The prerendered heading shows before the app runs: its timers start once it does.
  await expect(page.locator('html[data-app-ready]')).toHaveCount(1);
  await page.clock.runFor(MARKETING_TIMING.consentBannerDelayMs);
  const banner = page.getByRole('region', { name: 'We use cookies' });
  await banner.getByRole('button', { name: 'Reject non-essential' }).click();
  await expect(banner).toHaveCount(0);
  expect(JSON.parse((await storedConsent(page))!)).toEqual({ necessary: true, analytics: false, marketing: false });
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // The prerendered heading shows before the app runs: its timers start once it does.
  await expect(page.locator('html[data-app-ready]')).toHaveCount(1);
  await page.clock.runFor(MARKETING_TIMING.consentBannerDelayMs * 3);
  await expect(banner).toHaveCount(0);
});

test('the close button hides the banner without storing a choice; it comes back on the next visit', async ({ page }) => {
  await stopClock(page);
  await openReady(page, '/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // The prerendered heading shows before the app runs: its timers start once it does.
  await expect(page.locator('html[data-app-ready]')).toHaveCount(1);
  await page.clock.runFor(MARKETING_TIMING.consentBannerDelayMs);
  const banner = page.getByRole('region', { name: 'We use cookies' });
  await banner.getByRole('button', { name: 'Close' }).click();
  await expect(banner).toHaveCount(0);
  expect(await storedConsent(page)).toBeNull();

  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // The prerendered heading shows before the app runs: its timers start once it does.
  await expect(page.locator('html[data-app-ready]')).toHaveCount(1);
  await page.clock.runFor(MARKETING_TIMING.consentBannerDelayMs);
  await expect(banner).toBeVisible();
});

test('a stored value that is not a consent we wrote counts as none', async ({ page }) => {
  await page.addInitScript((key) => (globalThis as unknown as PageWindow).localStorage.setItem(key, 'yes'), COOKIE_CONSENT_KEY);
  await stopClock(page);
  await openReady(page, '/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // The prerendered heading shows before the app runs: its timers start once it does.
  await expect(page.locator('html[data-app-ready]')).toHaveCount(1);
  await page.clock.runFor(MARKETING_TIMING.consentBannerDelayMs);
  await expect(page.getByRole('region', { name: 'We use cookies' })).toBeVisible();
});

test('the footer links to the site pages, the support address, and shows the year', async ({ page }) => {
  await withConsent(page);
  await openReady(page, '/');
  const footer = page.getByRole('navigation', { name: 'Footer' });
  const expected: [string, string][] = [
    ['Terms of Service', '/terms'],
    ['Privacy Policy', '/privacy'],
    ['Press Kit', '/press'],
    ['Use Cases', '/use-cases'],
    ['Updates', '/updates'],
    ['Affiliate Program', '/affiliate'],
    ['Contact Us', mailto(CONTACT.support)],
  ];
  await expect(footer.getByRole('link')).toHaveCount(expected.length);
  for (const [name, href] of expected) await expect(footer.getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
  await expect(page.locator('footer')).toContainText(`© ${new Date().getFullYear()} vibeeval`);

  await footer.getByRole('link', { name: 'Terms of Service' }).click();
  await expect(page).toHaveURL(/\/terms$/);
});

test('at 1280x800 the cookie banner leaves the URL form free: its field and its button stay visible and clickable', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openReady(page, '/');
  const banner = page.getByRole('region', { name: 'We use cookies' });
  await expect(banner).toBeVisible();
  const panel = (await banner.locator('> div').boundingBox())!;
  const form = page.getByRole('form', { name: 'Test a website' });
  const field = (await form.getByRole('textbox').first().boundingBox())!;
  const button = (await form.getByRole('button').last().boundingBox())!;
  const overlaps = (a: typeof panel, b: typeof panel) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
  await page.screenshot({ path: 'test-results/screens/landing-cookie-banner-1280x800.png' });
  expect(overlaps(panel, field), 'the banner covers the URL field').toBe(false);
  expect(overlaps(panel, button), 'the banner covers the form button').toBe(false);
  // The field takes a click while the banner is up.
  await form.getByRole('textbox').first().click();
  await expect(form.getByRole('textbox').first()).toBeFocused();
});

test('accessibility, screenshots at 375 and 1280 px, no horizontal overflow at 375 px', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await openReady(page, '/');
  const banner = page.getByRole('region', { name: 'We use cookies' });
  await expect(banner).toBeVisible();
  // The banner fits the phone width and leaves most of the screen free.
  const box = (await banner.locator('> div').boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(375);
  expect(box.height).toBeLessThan(812 / 2);
  await page.screenshot({ path: 'test-results/screens/landing-cookie-banner-375.png' });
  await expectNoSeriousA11yViolations(page);

  await banner.getByRole('button', { name: 'Accept all' }).click();
  expect(await scrollWidth(page)).toBeLessThanOrEqual(375);

  // Every slide at phone width, for the overflow check and a look.
  const carousel = page.getByRole('region', { name: 'Examples of findings' });
  for (let i = 0; i < 5; i++) {
    expect(await scrollWidth(page)).toBeLessThanOrEqual(375);
    await carousel.getByRole('button', { name: 'Next slide' }).click();
  }
  await carousel.scrollIntoViewIfNeeded();
  await snap(page, 'landing-carousel-375');
  await page.evaluate(() => (globalThis as unknown as PageWindow).scrollTo(0, 0));

  await snapWidths(page, 'landing');
  await page.setViewportSize({ width: 1280, height: 900 });
  await expectNoSeriousA11yViolations(page);
});
