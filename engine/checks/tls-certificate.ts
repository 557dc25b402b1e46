import { responseExcerpt } from '../analysis/evidence';
import { defineCheck, type TlsInfo } from '../types';

const DAY_MS = 86_400_000;

function describe(tls: TlsInfo): string {
  return [
    `subject: ${tls.subject}`,
    `issuer: ${tls.issuer}`,
    `subjectAltNames: ${tls.subjectAltNames.join(', ')}`,
    `validFrom: ${tls.validFrom}`,
    `validTo: ${tls.validTo}`,
    `protocol: ${tls.protocol ?? 'unknown'}`,
    `authorizationError: ${tls.authorizationError ?? 'none'}`,
  ].join('\n');
}

/** The certificate must verify and not be about to expire. */
export const tlsCertificate = defineCheck({
  id: 'tls-certificate',
  family: 'transport',
  title: 'TLS certificate invalid or expiring',
  severity: 'high',
  confidence: 'high',
  cwe: 295,
  owasp: 'A04',
  description:
    'Checks the certificate the HTTPS start page presents: it must verify against trusted roots, match the host name, and not be close to expiry (30 days, or a third of its lifetime for short-lived certificates).',
  remediation:
    "Serve a certificate from a trusted CA that covers this host name, with the full intermediate chain, and renew it automatically (Let's Encrypt / ACME, or your host's managed certificates).",
  references: [
    'https://developer.mozilla.org/en-US/docs/Web/Security/Practical_implementation_guides/TLS',
    'https://cheatsheetseries.owasp.org/cheatsheets/Transport_Layer_Security_Cheat_Sheet.html',
    'https://cwe.mitre.org/data/definitions/295.html',
  ],
  appliesTo: (site) => /^https:/i.test(site.finalUrl) && !!site.root.tls,
  run(site) {
    const tls = site.root.tls;
    if (!tls) return [];
    const url = site.finalUrl;
    const evidence = { request: `GET ${url}`, response: `${responseExcerpt(site.root, [])}\n\n${describe(tls)}` };
    const validTo = Date.parse(tls.validTo);
    const daysLeft = Number.isNaN(validTo) ? undefined : Math.floor((validTo - Date.now()) / DAY_MS);
    if (tls.authorizationError === 'CERT_HAS_EXPIRED' || (daysLeft !== undefined && daysLeft < 0)) {
      return [
        {
          url,
          detail: `The certificate for ${new URL(url).host} expired on ${tls.validTo}; browsers show a full-page warning.`,
          evidence: { ...evidence, match: `validTo: ${tls.validTo}` },
          key: 'expired',
        },
      ];
    }
    if (!tls.authorized || tls.authorizationError) {
      return [
        {
          url,
          detail: `The certificate does not verify (${tls.authorizationError ?? 'not authorized'}); browsers refuse the connection or show a warning, and users learn to click through.`,
          evidence: { ...evidence, match: `authorizationError: ${tls.authorizationError ?? 'not authorized'}` },
          key: 'invalid',
        },
      ];
    }
    // Renewal is due at about a third of the lifetime left (certbot: 30 of 90 days). Short-lived certificates
    // (Let's Encrypt's 6-day ones) are judged by their own lifetime, not by the 30/14-day marks.
    const validFrom = Date.parse(tls.validFrom);
    const lifetime = Number.isNaN(validFrom) || Number.isNaN(validTo) ? 90 * DAY_MS : Math.max(validTo - validFrom, DAY_MS);
    const left = validTo - Date.now();
    if (daysLeft !== undefined && left <= Math.min(30 * DAY_MS, lifetime / 3)) {
      return [
        {
          url,
          severity: left <= Math.min(14 * DAY_MS, lifetime / 6) ? 'medium' : 'low',
          detail: `The certificate expires in ${daysLeft} day${daysLeft === 1 ? '' : 's'} (${tls.validTo}), past the point where automated renewal normally replaces it.`,
          evidence: { ...evidence, match: `validTo: ${tls.validTo}` },
          key: 'expiring',
        },
      ];
    }
    return [];
  },
});
