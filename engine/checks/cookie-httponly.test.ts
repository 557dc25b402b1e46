import { describe, expect, it } from 'vitest';
import { makeSite } from '../testing/site';
import { cookieHttpOnly } from './cookie-httponly';

const run = (cookies: string[]) => cookieHttpOnly.run(makeSite({ root: { url: 'https://app.example.com/', headers: { 'set-cookie': cookies }, body: '' } }));

describe('cookie-httponly', () => {
  it.each([
    [['session=1234567; HttpOnly; Secure']],
    [['csrftoken=abcdef; Secure; SameSite=Strict']], // read by scripts by design
    [['XSRF-TOKEN=abcdef; Secure']],
    [['locale=en']],
  ])('passes: %o', (cookies) => {
    expect(run(cookies)).toEqual([]);
  });

  it('flags session cookies readable by scripts', () => {
    const findings = run(['jwt=eyJhbGciOiJIUzI1NiJ9.x.y; Secure', 'JSESSIONID=ABCDEF0123; Secure; HttpOnly']);
    expect(findings).toMatchObject([{ key: 'jwt', evidence: { match: 'jwt=eyJh…; Secure' } }]);
  });

  it('flags a session token written by a script with medium confidence', () => {
    const site = makeSite({
      root: { url: 'https://app.example.com/', body: '' },
      rendering: { status: 'done', cookies: [{ name: 'auth_token', value: 'secretvalue', domain: 'app.example.com', path: '/', secure: true, httpOnly: false, sameSite: 'Lax' }] },
    });
    expect(cookieHttpOnly.run(site)).toMatchObject([{ key: 'auth_token', confidence: 'medium', evidence: { match: 'auth_token=secr…; Path=/; Secure; SameSite=Lax' } }]);
  });
});
