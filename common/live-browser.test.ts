import { describe, expect, it } from 'vitest';
import { BROWSER_URL_MESSAGES, browserUrlSchema, isOwnServer, parseBrowserAddress } from './live-browser';

const SERVER = 'http://127.0.0.1:8787';

describe('the live browser address bar', () => {
  it('gives a bare host https://, keeps http(s) addresses', () => {
    expect(parseBrowserAddress('example.com')).toEqual({ ok: true, url: 'https://example.com/' });
    expect(parseBrowserAddress('  example.com/pricing?a=1#top ')).toEqual({ ok: true, url: 'https://example.com/pricing?a=1#top' });
    expect(parseBrowserAddress('localhost:3000/x')).toEqual({ ok: true, url: 'https://localhost:3000/x' });
    expect(parseBrowserAddress('http://127.0.0.1:5173/')).toEqual({ ok: true, url: 'http://127.0.0.1:5173/' });
    expect(parseBrowserAddress('HTTPS://Example.COM')).toEqual({ ok: true, url: 'https://example.com/' });
  });

  it('refuses bad input with a clear message', () => {
    expect(parseBrowserAddress('   ')).toEqual({ ok: false, message: BROWSER_URL_MESSAGES.empty });
    expect(parseBrowserAddress('hello world')).toEqual({ ok: false, message: BROWSER_URL_MESSAGES.invalid });
    expect(parseBrowserAddress('foo')).toEqual({ ok: false, message: BROWSER_URL_MESSAGES.invalid });
    expect(parseBrowserAddress('javascript:alert(1)')).toEqual({ ok: false, message: BROWSER_URL_MESSAGES.scheme });
    expect(parseBrowserAddress('file:///etc/passwd')).toEqual({ ok: false, message: BROWSER_URL_MESSAGES.scheme });
    expect(parseBrowserAddress('data:text/html,x')).toEqual({ ok: false, message: BROWSER_URL_MESSAGES.scheme });
    expect(parseBrowserAddress('https://user:pw@example.com/')).toEqual({ ok: false, message: BROWSER_URL_MESSAGES.credentials });
    expect(parseBrowserAddress(`example.com/${'a'.repeat(2100)}`)).toEqual({ ok: false, message: BROWSER_URL_MESSAGES.tooLong });
    expect(parseBrowserAddress('https://exa mple.com/')).toEqual({ ok: false, message: BROWSER_URL_MESSAGES.invalid });
  });

  it('refuses the vibeeval server itself, under any loopback name', () => {
    expect(parseBrowserAddress(`${SERVER}/dashboard`, SERVER)).toEqual({ ok: false, message: BROWSER_URL_MESSAGES.ownServer });
    expect(parseBrowserAddress('http://localhost:8787/', SERVER)).toEqual({ ok: false, message: BROWSER_URL_MESSAGES.ownServer });
    expect(parseBrowserAddress('http://localhost:8788/', SERVER).ok).toBe(true);
    expect(isOwnServer(new URL('https://example.com/'), 'not an origin')).toBe(false);
  });

  it('checks URLs crossing a boundary: absolute http(s), no credentials, bounded', () => {
    expect(browserUrlSchema.safeParse('https://example.com/').success).toBe(true);
    for (const bad of ['example.com', 'javascript:alert(1)', 'file:///x', 'https://a:b@example.com/', `https://e.com/${'a'.repeat(2100)}`]) {
      expect(browserUrlSchema.safeParse(bad).success, bad).toBe(false);
    }
  });
});
