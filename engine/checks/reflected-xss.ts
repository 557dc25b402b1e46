import { excerptAround, exchangeEvidence, mediaType } from '../analysis/probe-answers';
import { defineCheck, type FindingDraft, type ProbeRequest, type SiteBeforeProbes } from '../types';

const ID = 'reflected-xss';
const MAX_URLS = 5;
/** Harmless when it executes (onload=1 does nothing) but proves markup injection when it comes back unescaped. */
const PAYLOAD = `"'<svg/onload=1>`;

interface PlannedProbe {
  key: string;
  url: string;
  params: Array<{ name: string; marker: string }>;
}

/** Markers are unique per URL and parameter, so a reflection names its parameter. */
function marker(urlIndex: number, paramIndex: number): string {
  return `vbe7x${urlIndex}p${paramIndex}${PAYLOAD}`;
}

/** Up to five same-origin crawled URLs with query parameters (one per path and parameter set), plus the start URL with ?q. */
export function planReflectedXss(site: SiteBeforeProbes): PlannedProbe[] {
  const bases: URL[] = [];
  const shapes = new Set<string>();
  for (const page of site.pages) {
    for (const candidate of [page.url, ...(page.html?.links ?? [])]) {
      let url: URL;
      try {
        url = new URL(candidate);
      } catch {
        continue;
      }
      if (url.origin !== site.origin || !url.search) continue;
      const shape = `${url.pathname}?${[...new Set(url.searchParams.keys())].sort().join('&')}`;
      if (shapes.has(shape)) continue;
      shapes.add(shape);
      bases.push(url);
      if (bases.length >= MAX_URLS) break;
    }
    if (bases.length >= MAX_URLS) break;
  }
  const start = new URL(site.finalUrl);
  start.hash = '';
  start.searchParams.set('q', '');
  bases.push(start);
  return bases.map((base, urlIndex) => {
    const url = new URL(base.href);
    const names = [...new Set(url.searchParams.keys())].slice(0, 10);
    const params = names.map((name, paramIndex) => ({ name, marker: marker(urlIndex, paramIndex) }));
    for (const { name, marker: value } of params) url.searchParams.set(name, value);
    return { key: `${ID}:${urlIndex}`, url: url.href, params };
  });
}

export const reflectedXss = defineCheck({
  id: ID,
  family: 'active',
  title: 'Reflected cross-site scripting',
  severity: 'high',
  confidence: 'medium',
  cwe: 79,
  owasp: 'A05',
  description:
    'Active check: sends a harmless marker with quotes and an <svg> tag in the query parameters of up to five crawled URLs and the start page, and reports HTML answers that return it unescaped.',
  remediation:
    "Encode output for its context (HTML body, attribute, JavaScript, URL) with the template engine's auto-escaping, never build HTML from request parameters by string concatenation, and add a strict Content-Security-Policy as defence in depth.",
  references: [
    'https://owasp.org/www-community/attacks/xss/',
    'https://cheatsheetseries.owasp.org/cheatsheets/Cross_Site_Scripting_Prevention_Cheat_Sheet.html',
    'https://cwe.mitre.org/data/definitions/79.html',
  ],
  appliesTo: (site) => site.options.active === true,
  probes: (site): ProbeRequest[] => (site.options.active ? planReflectedXss(site).map(({ key, url }) => ({ key, method: 'GET', url })) : []),
  run(site) {
    if (!site.options.active) return [];
    const findings: FindingDraft[] = [];
    for (const planned of planReflectedXss(site)) {
      const answer = site.probes.get(planned.key);
      if (!answer || answer.error || !/html/.test(mediaType(answer))) continue;
      for (const { name, marker: value } of planned.params) {
        const index = answer.body.indexOf(value);
        if (index < 0) continue;
        const path = new URL(planned.url).pathname;
        findings.push({
          url: planned.url,
          key: `${path}?${name}`,
          detail: `The ${name} parameter of ${path} is reflected into the HTML response without encoding: the marker ${value} came back with its quotes and <svg> tag intact, so an attacker-crafted link can run script in the victim's session.`,
          evidence: exchangeEvidence(answer, answer.body.slice(Math.max(0, index - 60), index + value.length + 60), { excerpt: excerptAround(answer.body, index, 600) }),
        });
      }
    }
    return findings;
  },
});
