import { collectCookies, cookieEvidence, domainScope } from '../analysis/cookies';
import { defineCheck } from '../types';

/** Cookies scoped to a parent domain are shared with every sibling subdomain (ZAP rule 90033). */
export const cookieLooseDomain = defineCheck({
  id: 'cookie-loose-domain',
  family: 'cookies',
  title: 'Cookie scoped to a parent domain',
  severity: 'low',
  confidence: 'high',
  cwe: 565,
  owasp: 'A02',
  description:
    'Looks for cookies whose Domain attribute is a parent of the host that set them (e.g. app.example.com setting Domain=example.com): every other subdomain, including forgotten or third-party-hosted ones, receives and can overwrite them.',
  remediation: 'Drop the Domain attribute so the cookie stays host-only (or use the `__Host-` prefix, which forbids Domain).',
  references: [
    'https://developer.mozilla.org/en-US/docs/Web/HTTP/Headers/Set-Cookie#domaindomain-value',
    'https://www.zaproxy.org/docs/alerts/90033/',
    'https://cwe.mitre.org/data/definitions/565.html',
  ],
  appliesTo: (site) => collectCookies(site).length > 0,
  run(site) {
    return collectCookies(site).flatMap((cookie) => {
      if (!cookie.domain) return [];
      const host = new URL(cookie.url).hostname.toLowerCase();
      const scope = domainScope(host, cookie.domain);
      if (scope === 'host' || scope === 'foreign') return [];
      const detail =
        scope === 'public-suffix'
          ? `The cookie ${cookie.name} is scoped to ${cookie.domain}, a public suffix shared by unrelated sites; browsers reject it, so the app likely misbehaves, and it shows the intent to share it with every site on ${cookie.domain}.`
          : scope === 'registrable-domain'
            ? `The cookie ${cookie.name} set by ${host} is scoped to Domain=${cookie.domain}, so every subdomain of ${cookie.domain} receives it and can overwrite it.`
            : `The cookie ${cookie.name} set by ${host} is scoped to the parent domain ${cookie.domain}, so sibling subdomains receive it.`;
      return [{ url: cookie.url, detail, evidence: cookieEvidence(cookie), key: cookie.name }];
    });
  },
});
