import { combinedWeaknesses, cspPolicies } from '../analysis/csp';
import { dedupeFindings, headerEvidence, htmlPages } from '../analysis/evidence';
import { defineCheck } from '../types';

const SHOWN = ['content-security-policy'];

/** An enforced CSP that still lets injected scripts run or load. */
export const cspWeak = defineCheck({
  id: 'csp-weak',
  family: 'headers',
  title: 'Weak Content-Security-Policy',
  severity: 'medium',
  confidence: 'high',
  cwe: 693,
  owasp: 'A02',
  description:
    "Parses the enforced Content Security Policies (headers and <meta>, with default-src fallback) and reports what defeats them: 'unsafe-inline' scripts without nonce or hash, 'unsafe-eval', wildcard or scheme-only script and object sources, and missing object-src, base-uri or frame-ancestors.",
  remediation:
    "Use nonces or hashes with 'strict-dynamic' instead of 'unsafe-inline', drop 'unsafe-eval' and wildcard or scheme-only sources (https:, data:, *) from script-src, and add `object-src 'none'; base-uri 'none'; frame-ancestors 'self'`.",
  references: [
    'https://developer.mozilla.org/en-US/docs/Web/HTTP/Headers/Content-Security-Policy',
    'https://cheatsheetseries.owasp.org/cheatsheets/Content_Security_Policy_Cheat_Sheet.html',
    'https://www.zaproxy.org/docs/alerts/10055/',
    'https://csp-evaluator.withgoogle.com/',
  ],
  run(site) {
    const drafts = htmlPages(site).flatMap((page) =>
      combinedWeaknesses(cspPolicies(page.exchange, page.html)).map((weakness) => ({
        url: page.url,
        severity: weakness.severity,
        detail: weakness.policy.delivery === 'meta' ? `${weakness.message} (policy from <meta http-equiv>)` : weakness.message,
        evidence: headerEvidence(page.exchange, SHOWN, weakness.match),
        key: weakness.id,
        signature: `${weakness.id} ${weakness.policy.raw}`,
      })),
    );
    return dedupeFindings(drafts, 10);
  },
});
