import { describe, expect, it } from 'vitest';
import { makeSite } from '../testing/site';
import { cookieSecure } from './cookie-secure';

const site = (cookies: string[], url = 'https://app.example.com/') => makeSite({ root: { url, headers: { 'set-cookie': cookies }, body: '' } });

describe('cookie-secure', () => {
  it.each([
    [['session=abcdef123456; Secure; HttpOnly; SameSite=Lax']],
    [['theme=dark']], // not a session cookie
    [['_ga=GA1.2.3; Path=/']],
  ])('passes: %o', (cookies) => {
    expect(cookieSecure.run(site(cookies))).toEqual([]);
  });

  it('applies only to https sites that set cookies', () => {
    expect(cookieSecure.appliesTo!(site([]))).toBe(false);
    expect(cookieSecure.appliesTo!(site(['sid=1'], 'http://app.example.com/'))).toBe(false);
    expect(cookieSecure.appliesTo!(site(['sid=1']))).toBe(true);
  });

  it('flags session cookies without Secure, with the value masked', () => {
    const findings = cookieSecure.run(site(['connect.sid=s%3Aabcdefghijklmnop; Path=/; HttpOnly', '__Host-token=zzzzzzzzzz; Path=/']));
    expect(findings.map((finding) => finding.key)).toEqual(['connect.sid', '__Host-token']);
    expect(findings[0]!.evidence.match).toBe('connect.sid=s%3A…; Path=/; HttpOnly');
    expect(JSON.stringify(findings)).not.toContain('abcdefghijklmnop');
  });

  it('reads Set-Cookie on redirect hops and cookies set by scripts', () => {
    const site = makeSite({
      root: {
        url: 'https://app.example.com/',
        body: '',
        redirects: [{ url: 'https://app.example.com/login', status: 302, location: '/', headers: [['set-cookie', 'PHPSESSID=0123456789; path=/']] }],
      },
      rendering: {
        status: 'done',
        cookies: [
          { name: 'sb-abcd-auth-token', value: 'base64-eyJhbGciOi', domain: 'app.example.com', path: '/', secure: false, httpOnly: false, sameSite: 'Lax' },
          { name: 'sid', value: 'elsewhere', domain: 'tracker.example.net', path: '/', secure: false, httpOnly: false, sameSite: 'None' },
        ],
      },
    });
    const findings = cookieSecure.run(site);
    expect(findings.map((finding) => [finding.key, finding.url])).toEqual([
      ['PHPSESSID', 'https://app.example.com/login'],
      ['sb-abcd-auth-token', 'https://app.example.com/'],
    ]);
    expect(findings[0]!.evidence.response).toBe('HTTP 302\nset-cookie: PHPSESSID=0123…; path=/');
  });
});
