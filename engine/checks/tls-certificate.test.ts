import { describe, expect, it } from 'vitest';
import { makeSite } from '../testing/site';
import type { TlsInfo } from '../types';
import { tlsCertificate } from './tls-certificate';

const DAY = 86_400_000;
const cert = (overrides: Partial<TlsInfo> = {}): TlsInfo => ({
  protocol: 'TLSv1.3',
  authorized: true,
  authorizationError: null,
  subject: 'CN=app.example.com',
  issuer: "CN=R11, O=Let's Encrypt",
  subjectAltNames: ['DNS:app.example.com'],
  validFrom: new Date(Date.now() - 30 * DAY).toUTCString(),
  validTo: new Date(Date.now() + 60 * DAY).toUTCString(),
  ...overrides,
});
const site = (tls?: TlsInfo, url = 'https://app.example.com/') => makeSite({ root: { url, body: '', tls } });

describe('tls-certificate', () => {
  it('passes a valid certificate with two months left', () => {
    expect(tlsCertificate.run(site(cert()))).toEqual([]);
  });

  it('applies only to https with certificate data', () => {
    expect(tlsCertificate.appliesTo!(site(undefined))).toBe(false);
    expect(tlsCertificate.appliesTo!(site(cert(), 'http://app.example.com/'))).toBe(false);
    expect(tlsCertificate.appliesTo!(site(cert()))).toBe(true);
  });

  it('flags an expired certificate', () => {
    const tls = cert({ authorized: false, authorizationError: 'CERT_HAS_EXPIRED', validTo: new Date(Date.now() - DAY).toUTCString() });
    const [finding] = tlsCertificate.run(site(tls));
    expect(finding).toMatchObject({ key: 'expired' });
    expect(finding!.severity).toBeUndefined();
    expect(finding!.evidence.response).toContain('authorizationError: CERT_HAS_EXPIRED');
  });

  it('flags a certificate that does not verify', () => {
    const findings = tlsCertificate.run(site(cert({ authorized: false, authorizationError: 'DEPTH_ZERO_SELF_SIGNED_CERT' })));
    expect(findings).toMatchObject([{ key: 'invalid', evidence: { match: 'authorizationError: DEPTH_ZERO_SELF_SIGNED_CERT' } }]);
  });

  it('judges a short-lived certificate by its lifetime', () => {
    const sixDays = (left: number) => cert({ validFrom: new Date(Date.now() - (6 - left) * DAY).toUTCString(), validTo: new Date(Date.now() + left * DAY).toUTCString() });
    expect(tlsCertificate.run(site(sixDays(4)))).toEqual([]);
    expect(tlsCertificate.run(site(sixDays(1.5)))).toMatchObject([{ key: 'expiring', severity: 'low' }]);
    expect(tlsCertificate.run(site(sixDays(0.5)))).toMatchObject([{ key: 'expiring', severity: 'medium' }]);
  });

  it.each([
    [10, 'medium'],
    [25, 'low'],
    [45, undefined],
  ])('expiry in %i days of 90 gives %s', (days, severity) => {
    // A 90-day certificate, as Let's Encrypt issues.
    const findings = tlsCertificate.run(
      site(cert({ validFrom: new Date(Date.now() - (90 - days) * DAY).toUTCString(), validTo: new Date(Date.now() + days * DAY + 3_600_000).toUTCString() })),
    );
    expect(findings).toMatchObject(severity ? [{ key: 'expiring', severity }] : []);
  });
});
