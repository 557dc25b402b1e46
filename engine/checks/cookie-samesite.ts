import { collectCookies, cookieEvidence, isTrackingCookie } from '../analysis/cookies';
import { defineCheck } from '../types';

const MAX_FINDINGS = 10;

/** Cookies should state SameSite=Lax or Strict. */
export const cookieSameSite = defineCheck({
  id: 'cookie-samesite',
  family: 'cookies',
  title: 'Cookie without SameSite or with SameSite=None',
  severity: 'low',
  confidence: 'high',
  cwe: 1275,
  owasp: 'A01',
  description:
    'Looks for first-party cookies set without a SameSite attribute, with an invalid one, or with SameSite=None: they are sent on cross-site requests (browsers without Lax-by-default always, None everywhere), which enables CSRF.',
  remediation: 'Set `SameSite=Lax` (or Strict for session cookies not needed on inbound links); use None only for cookies that must work cross-site, always with Secure.',
  references: [
    'https://developer.mozilla.org/en-US/docs/Web/HTTP/Headers/Set-Cookie#samesitesamesite-value',
    'https://owasp.org/www-community/SameSite',
    'https://www.zaproxy.org/docs/alerts/10054/',
  ],
  appliesTo: (site) => collectCookies(site).length > 0,
  run(site) {
    return collectCookies(site)
      .filter((cookie) => !isTrackingCookie(cookie.name))
      .flatMap((cookie) => {
        const value = cookie.sameSite?.trim().toLowerCase();
        if (value === 'lax' || value === 'strict') return [];
        // Browsers report cookies written by scripts without SameSite as "Lax"/"None" depending on the engine.
        if (cookie.via === 'script' && (value === undefined || value === '')) return [];
        const detail =
          value === undefined
            ? `The cookie ${cookie.name} has no SameSite attribute.`
            : value === 'none'
              ? `The cookie ${cookie.name} is SameSite=None, so browsers attach it to cross-site requests${cookie.secure ? '' : ' (and without Secure, current browsers reject it)'}.`
              : `The cookie ${cookie.name} has an invalid SameSite value ("${cookie.sameSite}"), which browsers ignore.`;
        return [{ url: cookie.url, detail, evidence: cookieEvidence(cookie), key: cookie.name }];
      })
      .slice(0, MAX_FINDINGS);
  },
});
