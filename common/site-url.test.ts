import { describe, expect, it } from 'vitest';
import { normaliseSiteUrl, siteUrlVariants, withScheme } from './site-url';

describe('normaliseSiteUrl', () => {
  it.each([
    ['example.com', 'https://example.com/'],
    ['  example.com/  ', 'https://example.com/'],
    ['https://example.com/', 'https://example.com/'],
    ['https://example.com', 'https://example.com/'],
    ['HTTPS://Example.COM:443/#top', 'https://example.com/'],
    ['http://example.com:80/', 'http://example.com/'],
    ['https://example.com/app/', 'https://example.com/app'],
    ['https://example.com/app//', 'https://example.com/app'],
    ['https://example.com/?ref=x', 'https://example.com/?ref=x'],
    ['https://example.com/shop/?ref=x', 'https://example.com/shop?ref=x'],
    ['http://127.0.0.1:5173', 'http://127.0.0.1:5173/'],
    ['localhost:3000', 'https://localhost:3000/'],
    ['http://intranet:8080', 'http://intranet:8080/'],
  ])('%s reads %s', (input, expected) => {
    expect(normaliseSiteUrl(input)).toBe(expected);
  });

  it.each([[''], ['not a url'], ['nope'], ['ftp://example.com'], ['https://exa mple.com'], ['https://example..com'], ['mailto:a@example.com']])('%s is not a site', (input) => {
    expect(normaliseSiteUrl(input)).toBeNull();
  });

  it('gives one form for every way of typing the same site', () => {
    const forms = ['example.com', 'example.com/', 'https://example.com', 'https://EXAMPLE.com/', 'https://example.com:443'];
    expect(new Set(forms.map(normaliseSiteUrl))).toEqual(new Set(['https://example.com/']));
  });

  it('adds https:// only when no scheme was typed, and lists the forms stored before', () => {
    expect(withScheme('example.com/a')).toBe('https://example.com/a');
    expect(withScheme('http://example.com')).toBe('http://example.com');
    expect(siteUrlVariants('https://example.com/')).toEqual(['https://example.com/', 'https://example.com']);
    expect(siteUrlVariants('https://example.com/app')).toEqual(['https://example.com/app']);
  });
});
