import { answered, headerEvidence } from '../analysis/evidence';
import { formatHeaders } from '../http/headers';
import { HTTPS_REDIRECT_PROBE_KEY, httpRedirectProbe, redirectRoute } from '../analysis/redirection';
import { isLoopback } from '../analysis/probe-answers';
import { defineCheck, type Exchange } from '../types';

const SHOWN = ['location', 'content-type', 'strict-transport-security'];

/** The redirect hops as they came back: status and Location of each, then the final status. */
function routeResponse(probe: Exchange): string {
  const hops = probe.redirects.map((hop) => [`HTTP ${hop.status}  (${hop.url})`, formatHeaders(hop.headers.filter(([name]) => name === 'location'))].join('\n'));
  if (!hops.length) return headerEvidence(probe, SHOWN).response ?? '';
  return [...hops, `HTTP ${probe.status}  (${probe.finalUrl})`].join('\n\n');
}

/** Plain-HTTP requests must be redirected to HTTPS, first hop straight to https on the same host. */
export const httpsRedirect = defineCheck({
  id: 'https-redirect',
  family: 'transport',
  title: 'HTTP is not redirected to HTTPS',
  severity: 'medium',
  confidence: 'high',
  cwe: 319,
  owasp: 'A04',
  description:
    'Requests the site over plain HTTP and checks that it answers with a redirect to HTTPS, going to https on the same host first, instead of serving content unencrypted.',
  remediation:
    'Answer every http:// request with a 301 or 308 redirect to the same host and path over https://, then send Strict-Transport-Security from the HTTPS site so browsers stop trying HTTP.',
  references: [
    'https://developer.mozilla.org/en-US/docs/Web/Security/Practical_implementation_guides/TLS#http_redirection',
    'https://cheatsheetseries.owasp.org/cheatsheets/Transport_Layer_Security_Cheat_Sheet.html',
    'https://cwe.mitre.org/data/definitions/319.html',
  ],
  probes: httpRedirectProbe,
  // Browsers treat localhost as a secure context; a local development server on plain HTTP is not a finding.
  appliesTo: (site) => !isLoopback(new URL(site.finalUrl).hostname),
  run(site) {
    const probe = site.probes.get(HTTPS_REDIRECT_PROBE_KEY);
    // No answer over HTTP (refused, timed out) means nothing is served unencrypted.
    if (!answered(probe)) return [];
    const route = redirectRoute(probe);
    const first = route[0]!;
    const request = `GET ${probe.url}`;
    if (route.length === 1) {
      if (probe.status < 200 || probe.status >= 300) return [];
      return [
        {
          url: probe.url,
          detail: `${probe.url} answers ${probe.status} with content over plain HTTP instead of redirecting to HTTPS.`,
          evidence: { ...headerEvidence(probe, SHOWN, undefined, { body: true }), request },
          key: 'no-redirect',
        },
      ];
    }
    const next = new URL(route[1]!.url);
    const last = new URL(route[route.length - 1]!.url);
    const chain = route.map((hop) => hop.url).join(' → ');
    if (last.protocol !== 'https:') {
      return [
        {
          url: probe.url,
          detail: `${probe.url} redirects, but never reaches HTTPS: ${chain}.`,
          evidence: { request, response: routeResponse(probe), match: chain },
          key: 'final-not-https',
        },
      ];
    }
    if (next.protocol === 'http:') {
      return [
        {
          url: probe.url,
          detail: `${probe.url} first redirects to another plain-HTTP URL (${next.href}) before HTTPS, so that hop can be intercepted: ${chain}.`,
          evidence: { request, response: routeResponse(probe), match: route[1]!.url },
          key: 'first-hop-http',
        },
      ];
    }
    if (new URL(first.url).hostname !== next.hostname) {
      return [
        {
          url: probe.url,
          severity: 'low',
          detail: `${probe.url} redirects to HTTPS on another host (${next.host}), so the original host never gets to send HSTS for itself.`,
          evidence: { request, response: routeResponse(probe), match: route[1]!.url },
          key: 'off-host',
        },
      ];
    }
    return [];
  },
});
