import { answered, dedupeFindings, headerEvidence } from '../analysis/evidence';
import { header } from '../http/headers';
import { defineCheck } from '../types';

const SHOWN = ['x-content-type-options', 'content-type'];

/** Responses should carry X-Content-Type-Options: nosniff. */
export const xContentTypeOptions = defineCheck({
  id: 'x-content-type-options',
  family: 'headers',
  title: 'X-Content-Type-Options not nosniff',
  severity: 'low',
  confidence: 'high',
  cwe: 693,
  owasp: 'A02',
  description:
    'Checks that responses send `X-Content-Type-Options: nosniff`, which stops browsers from guessing a content type and running an uploaded or mislabelled file as script or HTML.',
  remediation: 'Send `X-Content-Type-Options: nosniff` on every response, and a correct Content-Type.',
  references: [
    'https://developer.mozilla.org/en-US/docs/Web/HTTP/Headers/X-Content-Type-Options',
    'https://owasp.org/www-project-secure-headers/',
    'https://www.zaproxy.org/docs/alerts/10021/',
  ],
  run(site) {
    const drafts = [site.root, ...site.pages.map((page) => page.exchange)].filter(answered).flatMap((exchange) => {
      const value = header(exchange.headers, 'x-content-type-options');
      if (value?.trim().toLowerCase() === 'nosniff') return [];
      return [
        {
          url: exchange.finalUrl,
          detail: value === undefined ? 'The response has no X-Content-Type-Options header.' : `X-Content-Type-Options is "${value}", not nosniff, so browsers ignore it.`,
          evidence: headerEvidence(exchange, SHOWN, value),
          signature: value ?? 'missing',
        },
      ];
    });
    return dedupeFindings(drafts);
  },
});
