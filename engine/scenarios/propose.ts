import type { BrowserContext, Page } from 'playwright-core';
import { stepsSchema, type Step } from '../../common/scenarios';
import { RunCollector } from './collector';
import { firstPage, openGuardedContext } from './context';
import { ProposalError } from './errors';
import type { ProposalOptions, ProposedScenario } from './types';
import { pickLocator } from './pick-locator';
import { NAVIGATION_TIMEOUT_MS } from './steps';
import type { Credentials } from './types';
import { escapeRegExp } from '../escape-regexp';

/** The home page and this many pages linked from it: enough for a first suite, quick to read. */
const MAX_PAGES = 5;
const MAX_NAV_LINKS = 5;
const LOGIN_PATH = /log-?in|sign-?in|auth/i;
const LOGOUT = /log-?out|sign-?out/i;

interface PageLink {
  href: string;
  name: string;
  nav: boolean;
}

/** One page as read in the browser: its title, its links, whether it loaded cleanly, what it holds. */
export interface PageFacts {
  url: string;
  path: string;
  title: string;
  links: PageLink[];
  consoleErrors: number;
  failedRequests: number;
  hasPassword: boolean;
  forms: number;
}

/** Evaluated in the page: links (those in nav/header first), password fields, forms. A string: it runs as written. */
const READ_PAGE = `(() => {
  const links = [];
  for (const a of document.querySelectorAll('a[href]')) {
    const rect = a.getBoundingClientRect();
    if (!rect.width || !rect.height) continue;
    const name = (a.getAttribute('aria-label') || a.innerText || '').replace(/\\s+/g, ' ').trim();
    links.push({ href: a.href, name, nav: Boolean(a.closest('nav, header, [role=navigation]')) });
  }
  return { title: document.title.trim(), links, hasPassword: Boolean(document.querySelector('input[type=password]')), forms: document.forms.length };
})()`;

/** The path of a URL relative to the website, as a goto step writes it. */
const pathOf = (url: URL) => `${url.pathname}${url.search}`;

/**
 * Playwright's errors when the page moved on its own while being driven: a script that navigates (`location.href =
 * ...` on load or on a timer) interrupts or aborts our navigation, or destroys the document being read.
 */
const MOVED_AWAY =
  /interrupted by another navigation|net::ERR_ABORTED|Execution context was destroyed|frame was detached|because of a navigation|Cannot find context with specified id/i;
const movedAway = (error: unknown) => error instanceof Error && MOVED_AWAY.test(error.message);

/** Runs one phase of the proposal; a page that moves away by script during it costs that phase's proposals only. */
async function unlessMoved<T>(phase: () => Promise<T>, fallback: T): Promise<T> {
  try {
    return await phase();
  } catch (error) {
    if (movedAway(error)) return fallback;
    throw error;
  }
}

/** Main-frame navigations beyond the one asked for, while reading a page: more than this and the page "would not stay". */
const RESTLESS_NAVIGATIONS = 3;

/** Reads one page; null when it did not load, 'restless' when its scripts kept navigating away before it could be read. */
async function readPage(page: Page, url: string, collector: RunCollector): Promise<PageFacts | 'restless' | null> {
  const errorsBefore = collector.consoleErrors.length;
  const failedBefore = collector.failedRequests.length;
  let navigations = 0;
  const counted = (frame: ReturnType<Page['mainFrame']>) => {
    if (frame === page.mainFrame()) navigations++;
  };
  page.on('framenavigated', counted);
  try {
    const response = await page.goto(url, { waitUntil: 'load', timeout: NAVIGATION_TIMEOUT_MS });
    if (!response || response.status() >= 400) return null;
    await collector.settle(150, 2_000);
    const read = await page.evaluate<Omit<PageFacts, 'url' | 'path' | 'consoleErrors' | 'failedRequests'>>(READ_PAGE);
    const landed = new URL(page.url());
    return {
      ...read,
      url: landed.href,
      path: pathOf(landed),
      consoleErrors: collector.consoleErrors.length - errorsBefore,
      failedRequests: collector.failedRequests.length - failedBefore,
    };
  } catch (error) {
    return movedAway(error) || navigations > RESTLESS_NAVIGATIONS ? 'restless' : null;
  } finally {
    page.off('framenavigated', counted);
  }
}

/** Same-origin links worth following from the home page: the main navigation's first, each path once. */
function mainLinks(home: PageFacts, origin: string): PageLink[] {
  const seen = new Set([home.path]);
  const links: PageLink[] = [];
  for (const link of [...home.links.filter((l) => l.nav), ...home.links.filter((l) => !l.nav)]) {
    const url = new URL(link.href);
    url.hash = '';
    if (url.origin !== origin || !link.name || LOGOUT.test(link.name) || LOGOUT.test(url.pathname) || seen.has(pathOf(url))) continue;
    seen.add(pathOf(url));
    links.push({ ...link, href: url.href });
  }
  return links;
}

function pageScenario(website: string, facts: PageFacts): ProposedScenario {
  const clean = facts.consoleErrors === 0 && facts.failedRequests === 0;
  const steps: Step[] = [{ type: 'goto', url: facts.path }];
  if (facts.title) steps.push({ type: 'expect_title', text: facts.title });
  // A page that already logs errors gets no assertion that fails today: the proposal must pass when saved.
  if (clean) steps.push({ type: 'expect_no_console_errors' }, { type: 'expect_no_failed_requests' });
  const label = facts.title || facts.path;
  return { website, steps, name: clean ? `${label}: loads with its title, no console error and no failed request` : `${label}: loads with its title` };
}

/** From the home page, each main link by its role and name, landing on its page. The page must be on the home page. */
async function navigationScenario(page: Page, website: string, home: PageFacts, links: PageLink[]): Promise<ProposedScenario | null> {
  const steps: Step[] = [];
  const used: string[] = [];
  for (const link of links.filter((l) => l.nav).slice(0, MAX_NAV_LINKS)) {
    // Only a name that finds one link on the home page: the click must not be ambiguous.
    if ((await page.getByRole('link', { name: link.name }).count()) !== 1) continue;
    const url = new URL(link.href);
    const pattern = `${escapeRegExp(url.pathname)}${url.search ? '' : '$'}`;
    steps.push({ type: 'goto', url: home.path }, { type: 'click', target: { by: 'role', role: 'link', name: link.name } }, { type: 'expect_url', pattern });
    used.push(link.name);
  }
  if (!used.length) return null;
  return { website, steps, name: `Main navigation: ${used.join(', ')}` };
}

const USER_FIELD = 'input[type=email], input[autocomplete=username], input[name*=user i], input[name*=mail i], input[name*=login i], input[type=text], input:not([type])';
const SUBMIT = 'button[type=submit], button:not([type]), input[type=submit]';

/**
 * The sign-in form (the one with a password field) filled with the credentials' references, tried in the browser
 * with the real values: proposed only when it signs in, asserting where it lands and what that page shows.
 */
async function loginScenario(page: Page, website: string, login: PageFacts, credentials: Credentials, collector: RunCollector): Promise<ProposedScenario | null> {
  await page.goto(login.url, { waitUntil: 'load', timeout: NAVIGATION_TIMEOUT_MS });
  const form = page.locator('form:has(input[type=password])').first();
  const elements = { user: form.locator(USER_FIELD).first(), password: form.locator('input[type=password]').first(), submit: form.locator(SUBMIT).first() };
  const user = await pickLocator(page, elements.user);
  const password = await pickLocator(page, elements.password);
  const submit = await pickLocator(page, elements.submit);
  if (!user || !password || !submit) return null;
  const before = new URL(page.url());
  await elements.user.fill(credentials.username);
  await elements.password.fill(credentials.password);
  await elements.submit.click();
  await page.waitForLoadState('load').catch(() => undefined);
  await collector.settle(150, 3_000);
  const landed = new URL(page.url());
  const stillLogin = landed.pathname === before.pathname || LOGIN_PATH.test(landed.pathname);
  if (stillLogin) return null; // the credentials did not sign in: a proposal would fail at once
  const steps: Step[] = [
    { type: 'goto', url: login.path },
    { type: 'fill', target: user, value: { credential: 'username' } },
    { type: 'fill', target: password, value: { credential: 'password' } },
    { type: 'click', target: submit },
    { type: 'expect_url', pattern: `${escapeRegExp(landed.pathname)}$` },
  ];
  const heading = page.getByRole('heading', { level: 1 });
  if ((await heading.count()) === 1) {
    const target = await pickLocator(page, heading);
    if (target) steps.push({ type: 'expect_visible', target });
  }
  return { website, steps, name: `Sign in with the test account and land on ${landed.pathname}` };
}

/** Sends a form empty with writes refused; the first line of text that appeared, or null (nothing, or it left the page). */
async function tryEmptySubmit(page: Page, submit: ReturnType<Page['locator']>, collector: RunCollector, setReadOnly: (on: boolean) => void): Promise<string | null> {
  const url = page.url();
  const before = new Set((await page.locator('body').innerText()).split('\n').map((line) => line.trim()));
  setReadOnly(true);
  try {
    await submit.click({ timeout: 3_000 });
    await collector.settle(150, 1_500);
  } catch {
    return null;
  } finally {
    setReadOnly(false);
  }
  if (page.url() !== url) return null;
  const lines = (await page.locator('body').innerText()).split('\n').map((line) => line.trim());
  return lines.find((line) => line.length >= 3 && line.length <= 200 && !before.has(line)) ?? null;
}

/** The form at `index` of a page, if its empty submit shows a validation message (and its button is new). */
async function formScenario(
  page: Page,
  website: string,
  facts: PageFacts,
  index: number,
  seen: Set<string>,
  collector: RunCollector,
  setReadOnly: (on: boolean) => void,
): Promise<ProposedScenario | null> {
  await page.goto(facts.url, { waitUntil: 'load', timeout: NAVIGATION_TIMEOUT_MS });
  const form = page.locator('form').nth(index);
  if ((await form.locator('input[type=password]').count()) > 0) return null;
  const submitElement = form.locator(SUBMIT).first();
  const submit = await pickLocator(page, submitElement);
  if (!submit || seen.has(JSON.stringify(submit))) return null;
  const message = await tryEmptySubmit(page, submitElement, collector, setReadOnly);
  if (!message) return null;
  seen.add(JSON.stringify(submit));
  const alert = page.getByRole('alert').filter({ hasText: message });
  const check: Step =
    (await alert.count()) === 1 && (await page.getByRole('alert').count()) === 1
      ? { type: 'expect_text', target: { by: 'role', role: 'alert' }, text: message }
      : { type: 'expect_visible', target: { by: 'text', text: message } };
  return {
    website,
    steps: [{ type: 'goto', url: facts.path }, { type: 'click', target: submit }, check],
    name: `${facts.title || facts.path}: the form shows "${message}" when sent empty`,
  };
}

/** Forms (no password field) whose empty submit shows a validation message: tried in the browser, the text asserted. */
async function formScenarios(page: Page, website: string, pages: PageFacts[], collector: RunCollector, setReadOnly: (on: boolean) => void): Promise<ProposedScenario[]> {
  const proposals: ProposedScenario[] = [];
  const seen = new Set<string>();
  for (const facts of pages.filter((p) => p.forms > 0)) {
    for (let index = 0; index < Math.min(facts.forms, 2); index++) {
      const proposal = await unlessMoved(() => formScenario(page, website, facts, index, seen, collector, setReadOnly), null);
      if (proposal) proposals.push(proposal);
    }
  }
  return proposals;
}

/** Stops between phases when the caller gave up. */
function checkAbort(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new ProposalError('Cancelled');
}

/** Proposals from the site alone: what a tester would write after a first look at the home page and its main links. */
export async function proposeFromSite(options: ProposalOptions): Promise<ProposedScenario[]> {
  const website = options.website;
  const origin = new URL(website).origin;
  const collector = new RunCollector(origin, (text) => text);
  let readOnly = false;
  let context: BrowserContext | undefined;
  try {
    context = await openGuardedContext({ ...options, readOnly: () => readOnly }, collector);
    const page = await firstPage(context);
    collector.watchPage(page);
    const home = await readPage(page, website, collector);
    if (home === 'restless') throw new ProposalError(`${website} kept navigating away by script and would not stay long enough to be read, so no scenario could be proposed`);
    if (!home) throw new ProposalError(`${website} did not load in the browser, so no scenario could be proposed`);
    const links = mainLinks(home, origin);
    const pages = [home];
    for (const link of links.slice(0, MAX_PAGES)) {
      checkAbort(options.signal);
      const facts = await readPage(page, link.href, collector);
      if (facts && facts !== 'restless' && !pages.some((p) => p.path === facts.path)) pages.push(facts);
    }
    // Pages that move away by script (a redirect on load, a timer) cost the proposals of the phase they broke, not
    // those already made: the user gets what could be proposed.
    const proposals = pages.map((facts) => pageScenario(website, facts));
    checkAbort(options.signal);
    const navigation = await unlessMoved(async () => {
      await page.goto(home.url, { waitUntil: 'load', timeout: NAVIGATION_TIMEOUT_MS });
      return navigationScenario(page, website, home, links);
    }, null);
    if (navigation) proposals.push(navigation);
    checkAbort(options.signal);
    proposals.push(...(await formScenarios(page, website, pages, collector, (on) => (readOnly = on))));
    const login = pages.find((p) => p.hasPassword);
    if (login && options.credentials) {
      checkAbort(options.signal);
      const signIn = await loginScenario(page, website, login, options.credentials, collector).catch(() => null);
      if (signIn) proposals.push(signIn);
    }
    return proposals.filter((proposal) => stepsSchema.safeParse(proposal.steps).success);
  } finally {
    await context?.close().catch(() => undefined);
  }
}
