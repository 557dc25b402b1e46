import hostData from '../data/malicious-script-hosts.json';
import { formatRequest, formatResponse } from '../analysis/probe-answers';
import { defineCheck, type FindingDraft, type Page } from '../types';

const ID = 'malicious-script-host';
const HOSTS: ReadonlyArray<{ host: string; reason: string }> = hostData.hosts;

/** The listed entry a URL's host belongs to (the host itself or a subdomain), or undefined. */
export function maliciousHost(url: string): { host: string; reason: string } | undefined {
  let hostname: string;
  try {
    hostname = new URL(url).hostname.toLowerCase().replace(/\.$/, '');
  } catch {
    return undefined;
  }
  return HOSTS.find(({ host }) => hostname === host || hostname.endsWith(`.${host}`));
}

export const maliciousScriptHost = defineCheck({
  id: ID,
  family: 'libraries',
  title: 'Script loaded from a known malicious host',
  severity: 'critical',
  confidence: 'high',
  cwe: 829,
  owasp: 'A03',
  description:
    'Reports scripts loaded from hosts known to have served malicious code to the sites embedding them, such as polyfill.io and the other CDNs of its operator (2024 supply-chain attack).',
  remediation:
    'Remove the script tag or point it to a trustworthy source (for polyfills, cdnjs.cloudflare.com/polyfill or fastly polyfill-fastly.io, or bundle the polyfills you need). Add Subresource Integrity to third-party scripts and review what the script may already have done to visitors.',
  references: [
    'https://sansec.io/research/polyfill-supply-chain-attack',
    'https://cwe.mitre.org/data/definitions/829.html',
    'https://developer.mozilla.org/en-US/docs/Web/Security/Subresource_Integrity',
  ],
  run(site) {
    const findings: FindingDraft[] = [];
    const seen = new Set<string>();
    const report = (scriptUrl: string, page: Page | undefined, how: string) => {
      const entry = maliciousHost(scriptUrl);
      if (!entry) return;
      const pageUrl = page?.url ?? site.finalUrl;
      if (seen.has(`${pageUrl}|${entry.host}`)) return;
      seen.add(`${pageUrl}|${entry.host}`);
      const exchange = page?.exchange ?? site.root;
      const tag = `<script src="${scriptUrl}">`;
      findings.push({
        url: pageUrl,
        key: entry.host,
        detail: `${pageUrl} ${how} ${scriptUrl}. ${entry.reason} Every visitor runs whatever that host serves.`,
        evidence: { request: formatRequest(exchange), response: formatResponse(exchange, { headers: ['content-type'], excerpt: tag }), match: tag },
      });
    };
    for (const page of site.pages) for (const script of page.html?.scripts ?? []) if (script.src) report(script.src, page, 'loads the script');
    for (const asset of site.assets) {
      if (asset.kind !== 'script') continue;
      const page = site.pages.find((candidate) => candidate.url === asset.referrer);
      report(asset.url, page, 'loads the script');
      if (asset.exchange.finalUrl !== asset.url) report(asset.exchange.finalUrl, page, `loads a script that redirects to`);
    }
    for (const request of site.rendering.requests) if (request.resourceType === 'script') report(request.url, undefined, 'loaded, while rendering, the script');
    return findings;
  },
});
