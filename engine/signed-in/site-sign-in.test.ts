// The site's own sign-ins: its JSON login API found in the bundle, and its login form (over HTTP here; in Chromium in
// the corpus), each giving the account a credential for the site's own routes, and each saying why it failed in the
// site's words. Scans of the corpus apps (engine/testing/corpus/apps/signed-in-methods.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { scan } from '../scan';
import { APP_ACCOUNTS, APPS } from '../testing/corpus/apps/signed-in-methods';
import { serveApp, type ServedApp } from '../testing/corpus/harness';
import type { CorpusApp } from '../testing/corpus/types';
import { findLoginApis } from './api-login';

const ORIGIN = 'https://app.test';
const app = (id: string): CorpusApp => APPS.find((a) => a.id === id)!;

describe('findLoginApis', () => {
  const cases: Array<{ text: string; found: Array<{ url: string; field: string }> }> = [
    { text: 'fetch("/api/auth/login",{method:"POST",body:JSON.stringify({email:e,password:t})})', found: [{ url: `${ORIGIN}/api/auth/login`, field: 'email' }] },
    { text: 'axios.post("/api/login",{username:u,password:p})', found: [{ url: `${ORIGIN}/api/login`, field: 'username' }] },
    { text: 'fetch("/login",{method:"POST",body:JSON.stringify({email,password})})', found: [{ url: `${ORIGIN}/login`, field: 'email' }] },
    { text: 'const r=await api.post(`/auth/signin`,{email:e,password:t})', found: [{ url: `${ORIGIN}/auth/signin`, field: 'email' }] },
    // A link to the login page is a page, not an API; another origin's login is another service.
    { text: 'e("a",{href:"/login"},"Sign in")', found: [] },
    { text: 'fetch("https://auth.other.example/api/login",{method:"POST"})', found: [] },
  ];
  for (const c of cases) {
    it(c.text.slice(0, 50), () => {
      expect(findLoginApis([{ kind: 'script', text: c.text }], ORIGIN)).toEqual(c.found);
    });
  }
});

describe("signing in with the site's own login", () => {
  let served: ServedApp | undefined;
  afterEach(async () => {
    await served?.close();
    served = undefined;
  });
  const run = async (target: CorpusApp, accounts = APP_ACCOUNTS) => {
    served = await serveApp(target);
    return scan(`${served.ctx.origin}/`, { render: false }, { addressPolicy: { allowPrivate: true }, chromiumPath: null, accounts });
  };

  it('signs in through the JSON login API, keeps its token, and finds the invoice any user can open', async () => {
    const result = await run(app('vite-api-signed-in-json-login-invoice-any-user'));
    expect(result.coverage?.signIns).toEqual(APP_ACCOUNTS.map((a) => ({ account: a.login, signedIn: true, method: 'api' })));
    // JSON records are the API check's, reported once for the route; the page check stays quiet on them.
    expect(result.findings.filter((f) => f.checkId === 'api-cross-user-read').map((f) => new URL(f.url).pathname)).toEqual(['/api/invoices/:id']);
    expect(result.findings.filter((f) => f.checkId === 'signed-in-cross-user-page')).toEqual([]);
    expect(served!.writes()).toEqual([]);
  }, 120_000);

  it('posts the login form over HTTP without a browser (hidden fields kept), and the owner-checked twin gives nothing', async () => {
    const vulnerable = await run(app('express-signed-in-form-invoice-any-user'));
    expect(vulnerable.coverage?.signIns?.map((s) => [s.signedIn, s.method])).toEqual([
      [true, 'form'],
      [true, 'form'],
    ]);
    expect(vulnerable.findings.filter((f) => f.checkId === 'signed-in-cross-user-page').length).toBe(2);
    await served!.close();
    const clean = await run(app('express-clean-signed-in-form-invoice-owner'));
    expect(clean.coverage?.signIns?.every((s) => s.signedIn)).toBe(true);
    expect(clean.findings.filter((f) => f.checkId === 'signed-in-cross-user-page')).toEqual([]);
  }, 120_000);

  it('signs a lone account in by the login form even when no check needed it, so the coverage says it can', async () => {
    const result = await run(app('express-clean-signed-in-form-invoice-owner'), [APP_ACCOUNTS[0]!]);
    expect(result.coverage?.signIns).toEqual([{ account: APP_ACCOUNTS[0]!.login, signedIn: true, method: 'form' }]);
    // One sign-in: a fresh copy of the login page, then its POST.
    expect(served!.writes()).toEqual([]);
  }, 120_000);

  it("says why each sign-in failed, in the site's words, and never echoes the password", async () => {
    const wrong = [
      { login: APP_ACCOUNTS[0]!.login, password: 'Wrong-Pass-321' },
      { login: 'bob', password: 'Also-Wrong-654' },
    ];
    const api = await run(app('vite-api-signed-in-json-login-invoice-any-user'), wrong);
    expect(api.coverage?.signIns).toEqual([
      { account: wrong[0]!.login, signedIn: false, method: 'api', reason: `The site's login API (POST /api/auth/login) was refused: HTTP 401, "Invalid email or password".` },
      {
        account: 'bob',
        signedIn: false,
        method: 'api',
        reason: "Not signed in: the site's login API (POST /api/auth/login) takes an email address, and this login is a user name.",
      },
    ]);
    await served!.close();
    const form = await run(app('express-signed-in-form-invoice-any-user'), wrong);
    expect(form.coverage?.signIns?.[0]).toMatchObject({ signedIn: false, method: 'form', reason: expect.stringContaining('The login form at /login did not sign in') as unknown });
    expect(JSON.stringify([api, form])).not.toMatch(/Wrong-Pass-321|Also-Wrong-654/);
  }, 120_000);
});
