import { headerEvidence, htmlPages, startPage } from '../analysis/evidence';
import { header } from '../http/headers';
import { defineCheck, type FindingDraft } from '../types';

const HEADERS = [
  {
    name: 'cross-origin-resource-policy',
    key: 'corp',
    title: 'Cross-Origin-Resource-Policy header missing',
    detail: 'The start page sends no Cross-Origin-Resource-Policy, so other sites may embed it and its responses can land in their process (Spectre-style leaks).',
  },
  {
    name: 'cross-origin-opener-policy',
    key: 'coop',
    title: 'Cross-Origin-Opener-Policy header missing',
    detail: 'The start page sends no Cross-Origin-Opener-Policy, so a page it opens, or that opens it, keeps a window reference across origins (tabnabbing, XS-Leaks).',
  },
] as const;

/** Cross-Origin-Resource-Policy and Cross-Origin-Opener-Policy on the start page. */
export const crossOriginIsolation = defineCheck({
  id: 'cross-origin-isolation',
  family: 'headers',
  title: 'Cross-origin isolation headers missing',
  severity: 'info',
  confidence: 'high',
  cwe: 693,
  owasp: 'A02',
  description:
    'Checks that the start page sends Cross-Origin-Resource-Policy and Cross-Origin-Opener-Policy, which keep other sites from embedding it or holding a reference to its window.',
  remediation: 'Send `Cross-Origin-Opener-Policy: same-origin` and `Cross-Origin-Resource-Policy: same-origin` (or same-site when subdomains embed each other).',
  references: [
    'https://developer.mozilla.org/en-US/docs/Web/HTTP/Headers/Cross-Origin-Resource-Policy',
    'https://developer.mozilla.org/en-US/docs/Web/HTTP/Headers/Cross-Origin-Opener-Policy',
    'https://owasp.org/www-project-secure-headers/',
  ],
  appliesTo: (site) => htmlPages(site).some((page) => page.url === startPage(site).url),
  run(site) {
    const page = startPage(site);
    const findings: FindingDraft[] = [];
    for (const { name, key, title, detail } of HEADERS) {
      if (header(page.exchange.headers, name) !== undefined) continue;
      findings.push({
        url: page.url,
        title,
        detail,
        evidence: headerEvidence(
          page.exchange,
          HEADERS.map((entry) => entry.name),
        ),
        key,
      });
    }
    return findings;
  },
});
