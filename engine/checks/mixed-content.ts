import { htmlPages } from '../analysis/evidence';
import { defineCheck, type FindingDraft, type Severity } from '../types';

/** Subresource tags browsers block as active mixed content (they can rewrite the page). */
const ACTIVE_TAGS = new Set(['script', 'iframe', 'frame', 'object', 'embed']);
/** Tags browsers upgrade or load as passive (display) mixed content. */
const PASSIVE_TAGS = new Set(['img', 'audio', 'video', 'source', 'track']);
const ACTIVE_REQUEST_TYPES = new Set(['script', 'stylesheet', 'xhr', 'fetch', 'websocket', 'eventsource', 'manifest', 'font']);
const PASSIVE_REQUEST_TYPES = new Set(['image', 'media']);
const MAX_FINDINGS = 10;

/** The markup around the first mention of a URL (the raw attribute may be relative or differently escaped). */
function excerptAround(body: string, url: string): string | undefined {
  const candidates = [url, url.replace(/^http:/, ''), new URL(url).pathname];
  for (const candidate of candidates) {
    const at = candidate.length > 1 ? body.indexOf(candidate) : -1;
    if (at !== -1) return body.slice(Math.max(0, at - 200), at + candidate.length + 200);
  }
  return undefined;
}

/** HTTPS pages must not load subresources over plain HTTP. */
export const mixedContent = defineCheck({
  id: 'mixed-content',
  family: 'transport',
  title: 'Mixed content: HTTPS page loads HTTP resources',
  severity: 'high',
  confidence: 'high',
  cwe: 319,
  owasp: 'A04',
  description:
    'Looks for https pages that load scripts, stylesheets, frames or plugins (active content) or images and media (passive content) over plain http://, which a network attacker can read or replace.',
  remediation: 'Load every subresource over https:// (most hosts and CDNs serve both); as a safety net add `Content-Security-Policy: upgrade-insecure-requests`.',
  references: [
    'https://developer.mozilla.org/en-US/docs/Web/Security/Mixed_content',
    'https://www.zaproxy.org/docs/alerts/10040/',
    'https://cwe.mitre.org/data/definitions/319.html',
  ],
  appliesTo: (site) => /^https:/i.test(site.finalUrl),
  run(site) {
    const findings: FindingDraft[] = [];
    const seen = new Set<string>();
    const report = (pageUrl: string, resource: string, tag: string, severity: Severity, body = '') => {
      if (seen.has(resource) || findings.length >= MAX_FINDINGS) return;
      seen.add(resource);
      const active = severity === 'high';
      findings.push({
        url: pageUrl,
        severity,
        detail: active
          ? `The https page loads a ${tag} over plain HTTP (${resource}); browsers block it, and where they do not, an attacker on the network can replace it to take over the page.`
          : `The https page loads ${tag === 'img' ? 'an image' : `a ${tag}`} over plain HTTP (${resource}); it can be read or swapped on the network, and the padlock is downgraded.`,
        evidence: { request: `GET ${pageUrl}`, response: excerptAround(body, resource) ?? `(requested by the page at run time: ${tag})`, match: resource },
        key: resource,
      });
    };
    for (const page of htmlPages(site)) {
      if (!/^https:/i.test(page.url) || !page.html) continue;
      for (const script of page.html.scripts) if (script.src?.startsWith('http:')) report(page.url, script.src, 'script', 'high', page.exchange.body);
      for (const sheet of page.html.stylesheets) if (sheet.href.startsWith('http:')) report(page.url, sheet.href, 'stylesheet', 'high', page.exchange.body);
      for (const { tag, url } of page.html.subresources) {
        if (!url.startsWith('http:')) continue;
        if (ACTIVE_TAGS.has(tag)) report(page.url, url, tag, 'high', page.exchange.body);
        else if (PASSIVE_TAGS.has(tag)) report(page.url, url, tag, 'low', page.exchange.body);
        // <link> (covered above for stylesheets; icons and canonical links are not loads) and <form> (another check) are skipped.
      }
    }
    // Requests a script made at run time (fetch, dynamic imports) only show up in the rendering.
    for (const request of site.rendering.requests) {
      if (!request.url.startsWith('http:')) continue;
      const type = request.resourceType.toLowerCase();
      if (ACTIVE_REQUEST_TYPES.has(type)) report(site.finalUrl, request.url, type, 'high');
      else if (PASSIVE_REQUEST_TYPES.has(type)) report(site.finalUrl, request.url, type, 'low');
    }
    return findings;
  },
});
