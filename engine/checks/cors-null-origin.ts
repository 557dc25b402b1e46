import { CORS_HEADERS, CORS_NULL_PREFIX, corsHeaders, corsProbeUrls } from '../analysis/cors';
import { answered, headerEvidence } from '../analysis/evidence';
import { defineCheck } from '../types';

/** Trusting Origin: null with credentials lets sandboxed iframes and data: URLs of any site read responses. */
export const corsNullOrigin = defineCheck({
  id: 'cors-null-origin',
  family: 'cors',
  title: 'CORS trusts the null origin with credentials',
  severity: 'high',
  confidence: 'high',
  cwe: 942,
  owasp: 'A01',
  description:
    "Sends requests with `Origin: null`; if the answer allows origin null together with credentials, any site can read responses with the visitor's cookies from a sandboxed iframe or a data: URL, which both send Origin: null.",
  remediation: 'Remove `null` from the CORS allow-list; only echo exact, allow-listed https origins.',
  references: [
    'https://developer.mozilla.org/en-US/docs/Web/HTTP/Headers/Access-Control-Allow-Origin',
    'https://portswigger.net/web-security/cors#whitelisted-null-origin-value',
    'https://cwe.mitre.org/data/definitions/942.html',
  ],
  probes: (site) => corsProbeUrls(site).map((url) => ({ key: `${CORS_NULL_PREFIX}${url}`, method: 'GET' as const, url, headers: { Origin: 'null' } })),
  run(site) {
    return corsProbeUrls(site).flatMap((url) => {
      const exchange = site.probes.get(`${CORS_NULL_PREFIX}${url}`);
      if (!answered(exchange)) return [];
      const { allowOrigin, allowCredentials } = corsHeaders(exchange);
      if (allowOrigin?.toLowerCase() !== 'null' || !allowCredentials) return [];
      return [
        {
          url,
          detail: `${url} answers Origin: null with Access-Control-Allow-Origin: null and credentials allowed, so a sandboxed iframe on any site can read it with the user's cookies.`,
          evidence: headerEvidence(exchange, CORS_HEADERS, 'access-control-allow-origin: null\naccess-control-allow-credentials: true', { requestHeaders: ['origin'] }),
        },
      ];
    });
  },
});
