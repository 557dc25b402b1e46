import { CORS_GET_PREFIX, CORS_HEADERS, corsHeaders } from '../analysis/cors';
import { answered, headerEvidence } from '../analysis/evidence';
import { headerAll } from '../http/headers';
import { maskValue } from '../analysis/cookies';
import { defineCheck, type Evidence, type Exchange, type FindingDraft } from '../types';

const MAX_FINDINGS = 5;

/** Appends the Set-Cookie headers with their values masked. */
function withMaskedCookies(evidence: Evidence, cookies: string[]): Evidence {
  if (!cookies.length) return evidence;
  const masked = cookies.map((value) => `set-cookie: ${value.replace(/=([^;]*)/, (_, cookieValue: string) => `=${maskValue(cookieValue.trim())}`)}`);
  return { ...evidence, response: [evidence.response, ...masked].join('\n') };
}

/** Access-Control-Allow-Origin: * where it does not belong. */
export const corsWildcardCredentials = defineCheck({
  id: 'cors-wildcard-credentials',
  family: 'cors',
  title: 'CORS wildcard with credentials or cookies',
  severity: 'low',
  confidence: 'medium',
  cwe: 942,
  owasp: 'A02',
  description:
    'Looks for `Access-Control-Allow-Origin: *` combined with `Access-Control-Allow-Credentials: true` (browsers refuse that pair, but it shows a CORS setup that someone will "fix" by reflecting origins), and for * on responses that set cookies.',
  remediation: 'Use * only for public, cookie-free resources and never with Access-Control-Allow-Credentials; for credentialed access, echo origins from an explicit allow-list.',
  references: [
    'https://developer.mozilla.org/en-US/docs/Web/HTTP/CORS#credentialed_requests_and_wildcards',
    'https://www.zaproxy.org/docs/alerts/10098/',
    'https://cwe.mitre.org/data/definitions/942.html',
  ],
  run(site) {
    const exchanges: Exchange[] = [site.root, ...site.pages.map((page) => page.exchange)];
    for (const [key, exchange] of site.probes) if (key.startsWith(CORS_GET_PREFIX)) exchanges.push(exchange);
    const findings: FindingDraft[] = [];
    const seen = new Set<string>();
    for (const exchange of exchanges) {
      if (!answered(exchange) || seen.has(exchange.finalUrl) || findings.length >= MAX_FINDINGS) continue;
      const { allowOrigin, allowCredentials } = corsHeaders(exchange);
      if (allowOrigin !== '*') continue;
      const cookies = headerAll(exchange.headers, 'set-cookie');
      if (!allowCredentials && !cookies.length) continue;
      seen.add(exchange.finalUrl);
      findings.push({
        url: exchange.finalUrl,
        severity: allowCredentials ? 'low' : 'info',
        detail: allowCredentials
          ? `${exchange.finalUrl} sends Access-Control-Allow-Origin: * with Access-Control-Allow-Credentials: true; browsers reject this pair, so the intended credentialed CORS is broken and a later "fix" often reflects any origin.`
          : `${exchange.finalUrl} allows every origin (*) on a response that sets cookies; fine for public data, but user-specific responses must not be readable cross-origin.`,
        evidence: withMaskedCookies(
          headerEvidence(exchange, CORS_HEADERS, allowCredentials ? 'access-control-allow-origin: *\naccess-control-allow-credentials: true' : 'access-control-allow-origin: *', {
            requestHeaders: ['origin'],
          }),
          cookies,
        ),
        key: allowCredentials ? 'credentials' : 'cookies',
      });
    }
    return findings;
  },
});
