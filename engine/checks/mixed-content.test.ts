import { describe, expect, it } from 'vitest';
import { makeSite } from '../testing/site';
import { mixedContent } from './mixed-content';

const page = (body: string, url = 'https://app.example.com/') => makeSite({ root: { url, body } });

describe('mixed-content', () => {
  it.each([
    ['https resources only', '<script src="https://cdn.example.net/a.js"></script><img src="/logo.png">'],
    ['an http link is not a load', '<a href="http://example.org/">x</a><link rel="canonical" href="http://app.example.com/">'],
    ['forms are another check', '<form action="http://app.example.com/login"></form>'],
  ])('passes: %s', (_name, body) => {
    expect(mixedContent.run(page(body))).toEqual([]);
  });

  it('applies only to https sites', () => {
    expect(mixedContent.appliesTo!(page('', 'http://app.example.com/'))).toBe(false);
  });

  it('flags active content high and passive content low, once per resource', () => {
    const body = [
      '<script src="http://cdn.example.net/lib.js"></script>',
      '<link rel="stylesheet" href="http://cdn.example.net/site.css">',
      '<iframe src="http://widgets.example.org/w"></iframe>',
      '<img src="http://img.example.org/a.png"><img src="http://img.example.org/a.png">',
    ].join('');
    const findings = mixedContent.run(page(body));
    expect(findings.map((finding) => [finding.key, finding.severity])).toEqual([
      ['http://cdn.example.net/lib.js', 'high'],
      ['http://cdn.example.net/site.css', 'high'],
      ['http://widgets.example.org/w', 'high'],
      ['http://img.example.org/a.png', 'low'],
    ]);
    expect(findings[0]!.evidence.response).toContain('<script src="http://cdn.example.net/lib.js">');
  });

  it('flags http requests made at run time', () => {
    const site = makeSite({
      root: { url: 'https://app.example.com/', body: '' },
      rendering: { status: 'done', requests: [{ url: 'http://api.example.org/v1', method: 'GET', resourceType: 'fetch' }] },
    });
    expect(mixedContent.run(site)).toMatchObject([{ key: 'http://api.example.org/v1', severity: 'high' }]);
  });
});
