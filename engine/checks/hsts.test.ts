import { describe, expect, it } from 'vitest';
import { makeSite } from '../testing/site';
import { hsts, parseHsts } from './hsts';

const site = (headers: Record<string, string | string[]>, url = 'https://app.example.com/') => makeSite({ root: { url, headers, body: '' } });

describe('hsts', () => {
  it('parses directives case-insensitively, quoted max-age included', () => {
    expect(parseHsts('Max-Age="31536000"; includeSubDomains; Preload')).toEqual({ maxAge: 31536000, includeSubDomains: true, preload: true });
    expect(parseHsts('includeSubDomains')).toEqual({ maxAge: undefined, includeSubDomains: true, preload: false });
  });

  it.each([['max-age=63072000; includeSubDomains; preload'], ['max-age=15552000; includeSubDomains']])('passes: %s', (value) => {
    expect(hsts.run(site({ 'strict-transport-security': value }))).toEqual([]);
  });

  it('applies only to https start pages', () => {
    expect(hsts.appliesTo!(site({}, 'http://app.example.com/'))).toBe(false);
    expect(hsts.appliesTo!(site({}))).toBe(true);
  });

  it('flags a missing header at the default severity', () => {
    const [finding, ...rest] = hsts.run(site({}));
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({ key: 'missing', url: 'https://app.example.com/' });
    expect(finding!.severity).toBeUndefined();
  });

  it('flags max-age=0 and a header without max-age as medium', () => {
    expect(hsts.run(site({ 'strict-transport-security': 'max-age=0' }))).toMatchObject([{ key: 'missing' }]);
    expect(hsts.run(site({ 'strict-transport-security': 'includeSubDomains' }))).toMatchObject([{ key: 'invalid' }]);
  });

  it('flags a short max-age as low and no includeSubDomains as info', () => {
    const findings = hsts.run(site({ 'strict-transport-security': 'max-age=86400' }));
    expect(findings.map((finding) => [finding.key, finding.severity])).toEqual([
      ['short', 'low'],
      ['subdomains', 'info'],
    ]);
    expect(findings[0]!.evidence.match).toBe('max-age=86400');
    expect(findings[0]!.evidence.response).toContain('strict-transport-security: max-age=86400');
  });
});
