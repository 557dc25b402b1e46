import { describe, expect, it } from 'vitest';
import { urlParts } from './url-parts';

describe('urlParts', () => {
  it('gives the URL back unchanged once joined', () => {
    for (const url of ['https://shop-12345.example.com:41235/a/b?x=1&y=2#top', 'http://127.0.0.1:3000/', 'not a url', '']) {
      expect(urlParts(url).join('')).toBe(url);
    }
  });

  it('never offers a break inside a number or a word', () => {
    const parts = urlParts('http://127.0.0.1:41235/projects/987654321');
    expect(parts).toEqual(['http://', '127', '.0', '.0', '.1:', '41235/', 'projects/', '987654321']);
    for (let i = 1; i < parts.length; i++) expect(/\d$/.test(parts[i - 1]!) && /^\d/.test(parts[i]!)).toBe(false);
  });
});
