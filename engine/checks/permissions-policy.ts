import { dedupeFindings, headerEvidence, htmlPages } from '../analysis/evidence';
import { header } from '../http/headers';
import { defineCheck } from '../types';

/** Pages should restrict powerful browser features with Permissions-Policy (ZAP rule 10063). */
export const permissionsPolicy = defineCheck({
  id: 'permissions-policy',
  family: 'headers',
  title: 'Permissions-Policy header not set',
  severity: 'low',
  confidence: 'medium',
  cwe: 693,
  owasp: 'A02',
  description:
    'Checks that HTML pages send a Permissions-Policy header, which switches off features the app does not use (camera, microphone, geolocation, payment) for the page and its frames, limiting what injected or third-party code can do.',
  remediation: 'Send e.g. `Permissions-Policy: camera=(), microphone=(), geolocation=(), payment=()`, allowing only the features the app uses.',
  references: [
    'https://developer.mozilla.org/en-US/docs/Web/HTTP/Headers/Permissions-Policy',
    'https://www.zaproxy.org/docs/alerts/10063/',
    'https://owasp.org/www-project-secure-headers/',
  ],
  run(site) {
    const drafts = htmlPages(site).flatMap((page) => {
      if (header(page.exchange.headers, 'permissions-policy') !== undefined) return [];
      const legacy = header(page.exchange.headers, 'feature-policy');
      return [
        {
          url: page.url,
          // ZAP reports the deprecated Feature-Policy separately at informational level.
          severity: legacy === undefined ? undefined : ('info' as const),
          detail:
            legacy === undefined
              ? 'The page sends no Permissions-Policy header.'
              : 'The page sends only the deprecated Feature-Policy header, which current browsers ignore in favour of Permissions-Policy.',
          evidence: headerEvidence(page.exchange, ['permissions-policy', 'feature-policy'], legacy),
          signature: legacy ?? 'missing',
        },
      ];
    });
    return dedupeFindings(drafts);
  },
});
