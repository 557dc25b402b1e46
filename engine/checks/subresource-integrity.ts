import { htmlPages } from '../analysis/evidence';
import { isMonitoringScript } from '../analysis/monitoring-script';
import { defineCheck, type FindingDraft } from '../types';

/** Services that change their script in place (versionless URLs): SRI would break them, CSP is the control. */
const EVERGREEN =
  /^https:\/\/(js\.stripe\.com|www\.googletagmanager\.com|www\.google-analytics\.com|www\.google\.com\/recaptcha|www\.gstatic\.com\/recaptcha|challenges\.cloudflare\.com|maps\.googleapis\.com|fonts\.googleapis\.com|connect\.facebook\.net|static\.cloudflareinsights\.com|js\.hs-scripts\.com|widget\.intercom\.io|cdn\.paddle\.com|checkout\.razorpay\.com|accounts\.google\.com\/gsi)\//i;
const MAX_FINDINGS = 10;

function excerptAround(body: string, url: string): string {
  const at = body.indexOf(url);
  if (at === -1) return '';
  return body.slice(Math.max(0, at - 150), at + url.length + 150);
}

/** Scripts and stylesheets from other origins must carry an integrity hash. */
export const subresourceIntegrity = defineCheck({
  id: 'subresource-integrity',
  family: 'headers',
  title: 'Third-party script or stylesheet without Subresource Integrity',
  severity: 'medium',
  confidence: 'high',
  cwe: 353,
  owasp: 'A08',
  description:
    'Looks for <script src> and <link rel=stylesheet> loaded from another origin without an integrity attribute: if that CDN or domain is compromised (as polyfill.io was), the code runs with full access to the page.',
  remediation:
    'Add `integrity="sha384-…" crossorigin="anonymous"` to pinned, versioned third-party files (srihash.org computes it), or self-host them; for services that change their file in place, restrict them with CSP instead.',
  references: [
    'https://developer.mozilla.org/en-US/docs/Web/Security/Subresource_Integrity',
    'https://www.zaproxy.org/docs/alerts/90003/',
    'https://cwe.mitre.org/data/definitions/353.html',
  ],
  run(site) {
    const findings: FindingDraft[] = [];
    const seen = new Set<string>();
    for (const page of htmlPages(site)) {
      if (!page.html) continue;
      const origin = new URL(page.url).origin;
      const resources = [
        // vibeeval's own monitoring script changes in place like the evergreen services, and is the product's own.
        ...page.html.scripts
          .filter((script) => script.src && !isMonitoringScript(script))
          .map((script) => ({ url: script.src!, integrity: script.integrity, kind: 'script' as const })),
        ...page.html.stylesheets.map((sheet) => ({ url: sheet.href, integrity: sheet.integrity, kind: 'stylesheet' as const })),
      ];
      for (const resource of resources) {
        if (resource.integrity?.trim() || seen.has(resource.url) || findings.length >= MAX_FINDINGS) continue;
        let host: string;
        try {
          const url = new URL(resource.url);
          if (url.origin === origin) continue;
          host = url.host;
        } catch {
          continue;
        }
        seen.add(resource.url);
        const evergreen = EVERGREEN.test(resource.url);
        findings.push({
          url: page.url,
          severity: resource.kind === 'script' && !evergreen ? 'medium' : 'low',
          detail: evergreen
            ? `The page loads ${resource.url} from ${host} without integrity; the provider updates this file in place so SRI cannot be used, which makes a tight CSP the control.`
            : `The page loads a ${resource.kind} from ${host} without an integrity hash; whoever controls ${host} controls this page.`,
          evidence: { request: `GET ${page.url}`, response: excerptAround(page.exchange.body, resource.url) || `${resource.kind}: ${resource.url}`, match: resource.url },
          key: resource.url,
        });
      }
    }
    return findings;
  },
});
