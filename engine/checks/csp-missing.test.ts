import { describe, expect, it } from 'vitest';
import { makeSite, type SiteInit } from '../testing/site';
import { cspMissing } from './csp-missing';

const URL = 'https://app.example.com/';

describe('csp-missing', () => {
  const valid: Array<[string, SiteInit]> = [
    ['CSP header', { root: { url: URL, headers: { 'content-security-policy': "default-src 'self'" }, body: '<p>' } }],
    ['CSP meta', { root: { url: URL, body: `<meta http-equiv="Content-Security-Policy" content="default-src 'self'">` } }],
    ['not HTML', { root: { url: URL, headers: { 'content-type': 'application/json' }, body: '{}' } }],
  ];
  it.each(valid)('passes: %s', (_name, init) => {
    expect(cspMissing.run(makeSite(init))).toEqual([]);
  });

  it('flags a missing policy once for the site, not once per page', () => {
    const findings = cspMissing.run(makeSite({ root: { url: URL, body: '<p>' }, pages: [{ url: `${URL}about`, body: '<p>' }] }));
    expect(findings).toMatchObject([{ url: URL, key: 'missing' }]);
  });

  it('reports a page that differs from the start page', () => {
    const findings = cspMissing.run(
      makeSite({ root: { url: URL, headers: { 'content-security-policy': "default-src 'self'" }, body: '<p>' }, pages: [{ url: `${URL}admin`, body: '<p>' }] }),
    );
    expect(findings).toMatchObject([{ url: `${URL}admin` }]);
  });

  it('does not count a report-only policy', () => {
    const findings = cspMissing.run(makeSite({ root: { url: URL, headers: { 'content-security-policy-report-only': "default-src 'self'" }, body: '<p>' } }));
    expect(findings).toMatchObject([{ key: 'report-only', evidence: { match: "default-src 'self'" } }]);
  });
});
