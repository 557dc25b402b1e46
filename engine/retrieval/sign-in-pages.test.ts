import { describe, expect, it } from 'vitest';
import { isAuthFlowUrl, isLoginUrl, signInTarget } from './sign-in-pages';

const ORIGIN = 'https://app.example.test';

describe('sign-in pages', () => {
  it.each([
    [`${ORIGIN}/login?next=/dashboard`, true],
    [`${ORIGIN}/auth`, true],
    [`${ORIGIN}/Auth/Sign-In`, true],
    [`https://clerk.app.example.test/sign-in?redirect_url=x`, true],
    [`https://tenant.auth0.test/u/login?state=x`, true],
    [`${ORIGIN}/#/login`, true],
    [`${ORIGIN}/#!/auth?next=%2Forders`, true],
    [`${ORIGIN}/docs#login`, false],
    [`${ORIGIN}/blog/login-tips-for-teams`, false],
    [`${ORIGIN}/authors`, false],
    [`${ORIGIN}/signup`, false],
    ['not a url', false],
  ])('%s is a sign-in page: %s', (url, expected) => {
    expect(isLoginUrl(url)).toBe(expected);
  });

  it('counts sign-up, sign-out and password pages as the sign-in flow', () => {
    for (const path of ['/signup', '/register', '/logout', '/auth/sign-out', '/forgot-password', '/#/reset-password', '/login'])
      expect(isAuthFlowUrl(`${ORIGIN}${path}`), path).toBe(true);
    expect(isAuthFlowUrl(`${ORIGIN}/dashboard`)).toBe(false);
  });
});

describe('where a rendered page went to sign in', () => {
  it('takes the final URL, else the first route set by the history API, when it is a sign-in page', () => {
    expect(signInTarget(`${ORIGIN}/dashboard`, `${ORIGIN}/login?redirect=%2Fdashboard`, [`${ORIGIN}/login?redirect=%2Fdashboard`])).toBe(`${ORIGIN}/login?redirect=%2Fdashboard`);
    // The app went to /auth, then its sign-in screen set a route of its own.
    expect(signInTarget(`${ORIGIN}/orders`, `${ORIGIN}/welcome`, [`${ORIGIN}/auth`, `${ORIGIN}/welcome`])).toBe(`${ORIGIN}/auth`);
    expect(signInTarget(`${ORIGIN}/`, `${ORIGIN}/#/login`, [])).toBe(`${ORIGIN}/#/login`);
  });

  it('finds nothing for a page that stayed, moved elsewhere, or was itself part of the sign-in flow', () => {
    expect(signInTarget(`${ORIGIN}/pricing`, `${ORIGIN}/pricing`, [])).toBeUndefined();
    expect(signInTarget(`${ORIGIN}/old-pricing`, `${ORIGIN}/pricing`, [`${ORIGIN}/pricing`])).toBeUndefined();
    expect(signInTarget(`${ORIGIN}/login`, `${ORIGIN}/login?next=%2F`, [])).toBeUndefined();
    expect(signInTarget(`${ORIGIN}/signup`, `${ORIGIN}/auth?mode=signup`, [])).toBeUndefined();
  });
});
