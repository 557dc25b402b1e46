import { CORS_GET_PREFIX, CORS_HEADERS, CORS_PREFLIGHT_PREFIX, PROBE_ORIGIN, corsHeaders, corsProbeUrls } from '../analysis/cors';
import { answered, headerEvidence } from '../analysis/evidence';
import { defineCheck, type FindingDraft } from '../types';

/** The server must not echo an arbitrary Origin in Access-Control-Allow-Origin. */
export const corsReflectedOrigin = defineCheck({
  id: 'cors-reflected-origin',
  family: 'cors',
  title: 'CORS reflects any Origin',
  severity: 'high',
  confidence: 'high',
  cwe: 942,
  owasp: 'A01',
  description: `Sends requests with Origin: ${PROBE_ORIGIN} to the start page and API URLs; if Access-Control-Allow-Origin echoes it, any website can read the responses from a visitor's browser, with their cookies when Access-Control-Allow-Credentials is true.`,
  remediation:
    'Compare the Origin header against an explicit allow-list of your own front-end origins and only then echo it (with `Vary: Origin`); never reflect it unchecked, and only send `Access-Control-Allow-Credentials: true` to allow-listed origins.',
  references: [
    'https://developer.mozilla.org/en-US/docs/Web/HTTP/CORS',
    'https://portswigger.net/web-security/cors',
    'https://www.zaproxy.org/docs/alerts/40040/',
    'https://cwe.mitre.org/data/definitions/942.html',
  ],
  probes(site) {
    const urls = corsProbeUrls(site);
    return [
      ...urls.map((url) => ({ key: `${CORS_GET_PREFIX}${url}`, method: 'GET' as const, url, headers: { Origin: PROBE_ORIGIN } })),
      // The HTTP Observatory's CORS test reads a preflight of the start page; the score reuses this one.
      {
        key: `${CORS_PREFLIGHT_PREFIX}${site.finalUrl}`,
        method: 'OPTIONS' as const,
        url: site.finalUrl,
        headers: { Origin: PROBE_ORIGIN, 'Access-Control-Request-Method': 'GET' },
      },
    ];
  },
  run(site) {
    const findings: FindingDraft[] = [];
    const reported = new Set<string>();
    const urls = corsProbeUrls(site);
    const answers = [
      ...urls.map((url) => ({ url, exchange: site.probes.get(`${CORS_GET_PREFIX}${url}`), kind: 'GET' })),
      { url: site.finalUrl, exchange: site.probes.get(`${CORS_PREFLIGHT_PREFIX}${site.finalUrl}`), kind: 'preflight' },
    ];
    for (const { url, exchange, kind } of answers) {
      if (!answered(exchange) || reported.has(url)) continue;
      const { allowOrigin, allowCredentials } = corsHeaders(exchange);
      if (allowOrigin !== PROBE_ORIGIN) continue;
      reported.add(url);
      const api = /^\/api(\/|$)/i.test(new URL(url).pathname);
      findings.push({
        url,
        severity: allowCredentials ? 'high' : api ? 'medium' : 'low',
        detail: allowCredentials
          ? `${url} echoes any Origin and allows credentials${kind === 'preflight' ? ' (in its preflight answer)' : ''}: any website a logged-in user visits can read this response with the user's cookies.`
          : `${url} echoes any Origin without credentials${kind === 'preflight' ? ' (in its preflight answer)' : ''}: any website can read the response, as with *, but the echo suggests an allow-list that is not applied.`,
        evidence: headerEvidence(exchange, CORS_HEADERS, `access-control-allow-origin: ${allowOrigin}${allowCredentials ? '\naccess-control-allow-credentials: true' : ''}`, {
          requestHeaders: ['origin', 'access-control-request-method'],
        }),
        key: kind,
      });
    }
    return findings;
  },
});
