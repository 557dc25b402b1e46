import { describe, expect, it } from 'vitest';
import { makeSite } from '../testing/site';
import { loginFormNoCsrf } from './login-form-no-csrf';

const login = (fields: string, action = '/login', headers: Record<string, string> = {}) =>
  makeSite({
    root: { url: 'https://app.example/login', headers, body: `<form method="post" action="${action}"><input name="user"><input type="password" name="pw">${fields}</form>` },
  });

describe('login-form-no-csrf', () => {
  it.each([
    ['hidden CSRF token', login('<input type="hidden" name="csrf_token" value="abc">')],
    ['Rails authenticity token', login('<input type="hidden" name="authenticity_token" value="abc">')],
    ['SameSite=Lax session cookie', login('', '/login', { 'set-cookie': 'sid=1; Path=/; Secure; HttpOnly; SameSite=Lax' })],
    ['form posting to an identity provider', login('', 'https://id.example/authorize')],
    ['GET search form', makeSite({ root: { url: 'https://app.example/', body: '<form><input type="password" name="pw"></form>' } })],
  ])('no finding: %s', (_name, site) => {
    expect(loginFormNoCsrf.run(site)).toEqual([]);
  });

  it('reports a same-origin POST login form without token or SameSite cookie', () => {
    const [finding] = loginFormNoCsrf.run(login('', '/login', { 'set-cookie': 'sid=1; Path=/' }));
    expect(finding?.detail).toContain('no hidden anti-CSRF token');
    expect(loginFormNoCsrf.confidence).toBe('low');
  });
});
