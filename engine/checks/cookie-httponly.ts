import { collectCookies, cookieEvidence, isCsrfCookie, isSessionCookie } from '../analysis/cookies';
import { defineCheck } from '../types';

/** Session cookies must be HttpOnly so injected scripts cannot read them. */
export const cookieHttpOnly = defineCheck({
  id: 'cookie-httponly',
  family: 'cookies',
  title: 'Session cookie without HttpOnly flag',
  severity: 'medium',
  confidence: 'high',
  cwe: 1004,
  owasp: 'A07',
  description:
    'Looks for session-like cookies readable by JavaScript (no HttpOnly, or set by a script): any XSS can then steal the session. Anti-CSRF cookies (csrf/xsrf) are skipped, since scripts must read them by design.',
  remediation:
    'Set `HttpOnly` on session cookies from the server. If a client library keeps the session in a readable cookie or localStorage, move the session to an HttpOnly cookie set by your backend (e.g. @supabase/ssr with server-side cookie handling).',
  references: [
    'https://developer.mozilla.org/en-US/docs/Web/HTTP/Cookies#restrict_access_to_cookies',
    'https://owasp.org/www-community/HttpOnly',
    'https://www.zaproxy.org/docs/alerts/10010/',
  ],
  appliesTo: (site) => collectCookies(site).length > 0,
  run(site) {
    return collectCookies(site)
      .filter((cookie) => isSessionCookie(cookie.name) && !isCsrfCookie(cookie.name) && !cookie.httpOnly)
      .map((cookie) => ({
        url: cookie.url,
        confidence: cookie.via === 'script' ? ('medium' as const) : undefined,
        detail:
          cookie.via === 'script'
            ? `The cookie ${cookie.name} looks like a session credential and is written by a script, so any script on the page can read it.`
            : `The cookie ${cookie.name} looks like a session credential and is set without HttpOnly, so any script on the page can read it.`,
        evidence: cookieEvidence(cookie),
        key: cookie.name,
      }));
  },
});
