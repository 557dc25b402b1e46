import { cspPolicies, enforcedPolicies } from '../analysis/csp';
import { dedupeFindings, headerEvidence, htmlPages } from '../analysis/evidence';
import { defineCheck } from '../types';

const SHOWN = ['content-security-policy', 'content-security-policy-report-only', 'content-type'];

/** HTML pages should enforce a Content-Security-Policy. */
export const cspMissing = defineCheck({
  id: 'csp-missing',
  family: 'headers',
  title: 'No Content-Security-Policy',
  severity: 'medium',
  confidence: 'high',
  cwe: 693,
  owasp: 'A02',
  description:
    'Checks that HTML pages enforce a Content Security Policy, by header or <meta http-equiv>, which limits what an injected script can load and run. A Report-Only policy does not count: it blocks nothing.',
  remediation:
    "Send a Content-Security-Policy header, e.g. `default-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'` and widen it only where the app needs (nonces for inline scripts).",
  references: [
    'https://developer.mozilla.org/en-US/docs/Web/HTTP/CSP',
    'https://cheatsheetseries.owasp.org/cheatsheets/Content_Security_Policy_Cheat_Sheet.html',
    'https://www.zaproxy.org/docs/alerts/10038/',
  ],
  run(site) {
    const drafts = htmlPages(site).flatMap((page) => {
      const policies = cspPolicies(page.exchange, page.html);
      if (enforcedPolicies(policies).length) return [];
      const reportOnly = policies.find((policy) => policy.delivery === 'report-only');
      return [
        {
          url: page.url,
          detail: reportOnly
            ? 'The page only sends Content-Security-Policy-Report-Only: violations are reported but nothing is blocked.'
            : 'The page sends no Content-Security-Policy header or <meta http-equiv> policy.',
          evidence: headerEvidence(page.exchange, SHOWN, reportOnly?.raw),
          key: reportOnly ? 'report-only' : 'missing',
          signature: reportOnly ? `report-only ${reportOnly.raw}` : 'missing',
        },
      ];
    });
    return dedupeFindings(drafts);
  },
});
