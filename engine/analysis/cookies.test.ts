import { describe, expect, it } from 'vitest';
import { makeSite } from '../testing/site';
import { collectCookies, domainScope, isSessionCookie, maskValue, maskedCookie, parseSetCookie } from './cookies';

describe('parseSetCookie', () => {
  it('reads the pair and the attributes case-insensitively', () => {
    expect(parseSetCookie('sid=a=b; Path=/; DOMAIN=.Example.com; secure; HttpOnly; SameSite=Lax; Max-Age=60')).toEqual({
      name: 'sid',
      value: 'a=b',
      secure: true,
      httpOnly: true,
      sameSite: 'Lax',
      domain: 'example.com',
      path: '/',
    });
  });
  it('keeps an empty SameSite and nameless cookies', () => {
    expect(parseSetCookie('a=1; SameSite')?.sameSite).toBe('');
    expect(parseSetCookie('justvalue')).toMatchObject({ name: '', value: 'justvalue' });
  });
});

describe('isSessionCookie', () => {
  it.each([
    'session',
    'PHPSESSID',
    'JSESSIONID',
    'connect.sid',
    'sid',
    'auth',
    'access_token',
    'jwt',
    'csrftoken',
    'sb-abcd-auth-token',
    '__Host-x',
    '__Secure-y',
    'laravel_session',
  ])('%s is session-like', (name) => expect(isSessionCookie(name)).toBe(true));
  it.each(['theme', 'locale', '_ga', '_hjSessionUser_123', '__stripe_sid', 'consid', 'cookie_consent'])('%s is not', (name) => expect(isSessionCookie(name)).toBe(false));
});

describe('masking', () => {
  it('keeps four characters of a value', () => {
    expect(maskValue('abcdefgh')).toBe('abcd…');
    expect(maskValue('abc')).toBe('abc');
  });
  it('masks the value inside the header as served', () => {
    const [cookie] = collectCookies(makeSite({ root: { url: 'https://a.example/', headers: { 'set-cookie': 'tok=secretsecret; Secure' }, body: '' } }));
    expect(maskedCookie(cookie!)).toBe('tok=secr…; Secure');
  });
});

describe('collectCookies', () => {
  it('collects every page once, skips third-party and header-set cookies from the browser jar', () => {
    const site = makeSite({
      root: { url: 'https://app.example.com/', headers: { 'set-cookie': 'a=1' }, body: '' },
      pages: [{ url: 'https://app.example.com/x', headers: { 'set-cookie': ['a=2', 'b=3'] }, body: '' }],
      rendering: {
        status: 'done',
        cookies: [
          { name: 'a', value: '1', domain: 'app.example.com', path: '/', secure: false, httpOnly: true, sameSite: 'Lax' },
          { name: 'c', value: '4', domain: '.example.com', path: '/', secure: false, httpOnly: false, sameSite: 'Lax' },
          { name: 'd', value: '5', domain: '.tracker.example', path: '/', secure: false, httpOnly: false, sameSite: 'None' },
        ],
      },
    });
    expect(collectCookies(site).map((cookie) => [cookie.name, cookie.value, cookie.via])).toEqual([
      ['a', '1', 'header'],
      ['b', '3', 'header'],
      ['c', '4', 'script'],
    ]);
  });
});

describe('domainScope', () => {
  it.each([
    ['app.example.com', undefined, 'host'],
    ['app.example.com', 'app.example.com', 'host'],
    ['app.example.com', 'example.com', 'registrable-domain'],
    ['a.b.example.com', 'b.example.com', 'subdomain'],
    ['my-app.vercel.app', 'vercel.app', 'public-suffix'],
    ['shop.example.co.uk', 'co.uk', 'public-suffix'],
    ['app.example.com', 'other.com', 'foreign'],
  ] as const)('%s with Domain=%s is %s', (host, domain, scope) => {
    expect(domainScope(host, domain)).toBe(scope);
  });
});
