import { collectCookies, cookieEvidence, isSessionCookie } from '../analysis/cookies';
import { defineCheck } from '../types';

/** Session cookies on an HTTPS site must be Secure. */
export const cookieSecure = defineCheck({
  id: 'cookie-secure',
  family: 'cookies',
  title: 'Session cookie without Secure flag',
  severity: 'medium',
  confidence: 'high',
  cwe: 614,
  owasp: 'A04',
  description:
    'Looks for session-like cookies (session, sid, auth, token, jwt, csrf, __Host- …) set without the Secure attribute on an HTTPS site: the browser also sends them over plain HTTP, where they can be captured.',
  remediation: 'Set `Secure` on every cookie of an HTTPS site (and better, use the `__Host-` prefix for session cookies).',
  references: [
    'https://developer.mozilla.org/en-US/docs/Web/Security/Practical_implementation_guides/Cookies',
    'https://owasp.org/www-community/controls/SecureCookieAttribute',
    'https://www.zaproxy.org/docs/alerts/10011/',
  ],
  appliesTo: (site) => /^https:/i.test(site.finalUrl) && collectCookies(site).length > 0,
  run(site) {
    return collectCookies(site)
      .filter((cookie) => isSessionCookie(cookie.name) && !cookie.secure)
      .map((cookie) => ({
        url: cookie.url,
        detail: `The cookie ${cookie.name} looks like a session credential and is set without Secure, so it also travels over plain HTTP.`,
        evidence: cookieEvidence(cookie),
        key: cookie.name,
      }));
  },
});
