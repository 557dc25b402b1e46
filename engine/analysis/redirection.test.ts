import { describe, expect, it } from 'vitest';
import { makeExchange } from '../testing/site';
import { certificateInvalid, httpUrlOf, redirectRoute } from './redirection';

describe('httpUrlOf', () => {
  it('switches the scheme, keeps host, path and query, drops the https port', () => {
    expect(httpUrlOf('https://app.example.com:443/a?b=1#c')).toBe('http://app.example.com/a?b=1');
    expect(httpUrlOf('not a url')).toBeUndefined();
  });
});

describe('redirectRoute', () => {
  it('lists each hop and the final URL of a followed chain', () => {
    const exchange = makeExchange({
      url: 'http://a.example/',
      finalUrl: 'https://a.example/',
      redirects: [{ url: 'http://a.example/', status: 301, location: 'https://a.example/', headers: [] }],
    });
    expect(redirectRoute(exchange)).toEqual([
      { url: 'http://a.example/', status: 301 },
      { url: 'https://a.example/', status: 200 },
    ]);
  });
  it('ends with the Location of an unfollowed redirect', () => {
    const exchange = makeExchange({ url: 'http://a.example/', status: 302, headers: { location: '/next' } });
    expect(redirectRoute(exchange).map((hop) => hop.url)).toEqual(['http://a.example/', 'http://a.example/next']);
  });
});

describe('certificateInvalid', () => {
  it('recognises verification errors and unauthorised certificates', () => {
    expect(certificateInvalid(makeExchange({ url: 'https://a.example/', error: 'CERT_HAS_EXPIRED' }))).toBe(true);
    expect(certificateInvalid(makeExchange({ url: 'https://a.example/', error: 'ECONNREFUSED' }))).toBe(false);
  });
});
