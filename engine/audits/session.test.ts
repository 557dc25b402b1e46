import { describe, expect, it } from 'vitest';
import { AuditError, auditUrls, median } from './session';

describe('auditUrls', () => {
  it('keeps http(s) pages once each, without fragments, at most ten', () => {
    const urls = Array.from({ length: 12 }, (_, i) => `https://e.example/p${i}`);
    const { urls: kept, warnings } = auditUrls(['https://e.example/p0#top', ...urls, 'ftp://e.example/', 'not a url']);
    expect(kept).toHaveLength(10);
    expect(kept[0]).toBe('https://e.example/p0');
    expect(warnings).toEqual([
      'ftp://e.example/ is not an http(s) URL and was left out.',
      "'not a url' is not a URL and was left out.",
      '2 pages beyond the first 10 were not audited.',
    ]);
  });

  it('refuses an empty list', () => {
    expect(() => auditUrls(['javascript:alert(1)'])).toThrow(AuditError);
  });
});

describe('median', () => {
  it.each([
    [[], null],
    [[3], 3],
    [[5, 1, 3], 3],
    [[4, 1, 3, 2], 2.5],
  ])('%j → %s', (values, expected) => {
    expect(median(values)).toBe(expected);
  });
});
