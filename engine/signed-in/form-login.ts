// The site's login form (a server-rendered app: a <form> with a password field that posts and sets a session cookie).
// In Chromium when the scan has one, filled and submitted as a person would (the scenario runner's field choice), the
// browser's cookies for the site kept; without a browser, the same form posted over HTTP with its hidden fields (a
// CSRF token) from a fresh copy of the page. The form's POST is the sign-in, the only write it sends.
import { launchPolicedChromium } from '../browser';
import type { AddressPolicy } from '../retrieval/address-policy';
import type { Fetcher } from '../retrieval/fetcher';
import { parseHtml } from '../retrieval/html';
import { isAuthFlowUrl, isLoginUrl } from '../retrieval/sign-in-pages';
import type { ParsedForm, SiteBeforeProbes } from '../types';
import { USER_AGENT } from '../version';
import { setCookies } from './api-login';
import { type MethodAnswer, type SignInMethodImpl } from './methods';

/** The fields the scenario runner fills as the user name (engine/scenarios/propose.ts). */
export const USER_FIELD = 'input[type=email], input[autocomplete=username], input[name*=user i], input[name*=mail i], input[name*=login i], input[type=text], input:not([type])';
const SUBMIT = 'button[type=submit], button:not([type]), input[type=submit]';
const NAVIGATION_TIMEOUT_MS = 15_000;
const USER_NAME = /user|mail|login|ident/i;

export interface LoginForm {
  /** The page that shows the form. */
  page: string;
  form: ParsedForm;
}

/** A sign-in form (one password field, not a sign-up or reset form) on the site's pages, the login page first. */
export function findLoginForm(site: SiteBeforeProbes): LoginForm | undefined {
  const candidates: LoginForm[] = [];
  for (const page of site.pages) {
    for (const form of page.html?.forms ?? []) {
      const passwords = form.inputs.filter((input) => input.type.toLowerCase() === 'password');
      if (passwords.length !== 1 || form.inputs.length > 8) continue;
      if (new URL(form.action).origin !== site.origin || (isAuthFlowUrl(form.action) && !isLoginUrl(form.action))) continue;
      candidates.push({ page: page.exchange.finalUrl || page.url, form });
    }
  }
  return candidates.find((c) => isLoginUrl(c.page) || isLoginUrl(c.form.action)) ?? candidates[0];
}

export interface FormLoginOptions {
  /** Chromium to sign in with; null or absent: the form is posted over HTTP. */
  chromiumPath?: string | null;
  policy?: AddressPolicy;
}

const stillOnLogin = (before: string, after: string): boolean => new URL(after).pathname === new URL(before).pathname || isLoginUrl(after);

/** Signs in by the form over HTTP: a fresh page (its cookies and hidden fields), then the form's POST. */
async function postForm(fetcher: Fetcher, login: LoginForm, user: string, password: string): Promise<MethodAnswer> {
  const page = await fetcher.fetch({ method: 'GET', url: login.page });
  const fresh = parseHtml(page.body, page.finalUrl || login.page).forms.find((f) => f.inputs.some((i) => i.type.toLowerCase() === 'password')) ?? login.form;
  const userField =
    fresh.inputs.find((i) => i.type !== 'hidden' && i.type !== 'password' && (i.type === 'email' || USER_NAME.test(i.name))) ?? fresh.inputs.find((i) => i.type === 'text');
  const passwordField = fresh.inputs.find((i) => i.type.toLowerCase() === 'password');
  if (!userField || !passwordField) return { ok: false, reason: `The login form at ${new URL(login.page).pathname} has no field for the user name.` };
  const fields = new URLSearchParams();
  for (const input of fresh.inputs) if (input.type === 'hidden' && input.name) fields.set(input.name, input.value ?? '');
  fields.set(userField.name, user);
  fields.set(passwordField.name, password);
  const before = setCookies(page);
  const answer = await fetcher.fetch({
    method: 'POST',
    url: fresh.action,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...(before.cookie ? { Cookie: before.cookie } : {}) },
    body: fields.toString(),
    noRedirect: true,
    repeatable: true,
  });
  const after = setCookies(answer);
  const location = answer.headers.find(([name]) => name.toLowerCase() === 'location')?.[1];
  const landed = location ? new URL(location, fresh.action).href : fresh.action;
  const redirectedAway = answer.status >= 300 && answer.status < 400 && !stillOnLogin(login.page, landed);
  if (!after.cookie || !redirectedAway)
    return {
      ok: false,
      reason: `The login form at ${new URL(login.page).pathname} did not sign in: the site answered HTTP ${answer.status}${location ? ` and sent the browser to ${new URL(landed).pathname}` : ''}.`,
    };
  return { ok: true, session: { credential: { cookie: after.cookie }, secrets: after.values } };
}

type PolicedBrowser = Awaited<ReturnType<typeof launchPolicedChromium>>;

/** Signs in by the form in a fresh context of Chromium; the cookies it holds for the site afterwards are the session. */
async function browserSignIn(browser: PolicedBrowser['browser'], login: LoginForm, user: string, password: string): Promise<MethodAnswer> {
  const where = new URL(login.page).pathname;
  // Announced as the scanner, as every other browser it drives (the site's own scripts, such as vibeeval's monitoring
  // script, tell it from a visitor by that).
  const context = await browser.newContext({ ignoreHTTPSErrors: true, serviceWorkers: 'block', userAgent: `${USER_AGENT} Chromium` });
  try {
    const page = await context.newPage();
    await page.goto(login.page, { waitUntil: 'load', timeout: NAVIGATION_TIMEOUT_MS });
    const form = page.locator('form:has(input[type=password])').first();
    const fields = { user: form.locator(USER_FIELD).first(), password: form.locator('input[type=password]').first(), submit: form.locator(SUBMIT).first() };
    if ((await fields.user.count()) === 0 || (await fields.submit.count()) === 0)
      return { ok: false, reason: `The login form at ${where} has no field for the user name or no submit button.` };
    const shown = new Set((await page.locator('body').innerText()).split('\n').map((line) => line.trim()));
    await fields.user.fill(user);
    await fields.password.fill(password);
    await Promise.all([page.waitForNavigation({ waitUntil: 'load', timeout: NAVIGATION_TIMEOUT_MS }).catch(() => undefined), fields.submit.click()]);
    const origin = new URL(login.page).origin;
    const cookies = (await context.cookies(origin)).slice(0, 20);
    if (stillOnLogin(login.page, page.url()) || cookies.length === 0) {
      const said = (
        await page
          .locator('body')
          .innerText()
          .catch(() => '')
      )
        .split('\n')
        .map((line) => line.trim())
        .find((line) => line.length >= 3 && line.length <= 200 && !shown.has(line));
      return { ok: false, reason: `The login form at ${where} did not sign in${said ? `: the page said "${said}"` : ': the browser stayed on the login page'}.` };
    }
    return {
      ok: true,
      session: { credential: { cookie: cookies.map((c) => `${c.name}=${c.value}`).join('; ') }, secrets: cookies.map((c) => c.value).filter((v) => v.length >= 4) },
    };
  } finally {
    await context.close().catch(() => undefined);
  }
}

/** Signing in through the site's login form; any login (email or user name) goes in its user field. */
export function formLoginMethod(login: LoginForm, options: FormLoginOptions): SignInMethodImpl {
  // One browser for every account's sign-in (each in its own context), closed with the sessions.
  let launched: Promise<PolicedBrowser> | undefined;
  return {
    method: 'form',
    refuseLogin: () => undefined,
    signIn: async (fetcher, account) => {
      const { chromiumPath, policy } = options;
      if (chromiumPath && policy) {
        try {
          launched ??= launchPolicedChromium(chromiumPath, policy);
          return await browserSignIn((await launched).browser, login, account.login, account.password);
        } catch (error) {
          return {
            ok: false,
            reason: `The login form at ${new URL(login.page).pathname} could not be used in the browser: ${(error as Error).message.split('\n')[0]!.slice(0, 200)}`,
          };
        }
      }
      return postForm(fetcher, login, account.login, account.password);
    },
    close: async () => {
      const open = await launched?.catch(() => undefined);
      launched = undefined;
      await open?.browser.close().catch(() => undefined);
      await open?.proxy.close();
    },
  };
}
