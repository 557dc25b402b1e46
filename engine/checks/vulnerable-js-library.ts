import { advisoriesFor, advisoryIds, detectFromContent, detectFromUrl, isEndOfLife, maxSeverity, ADVISORIES, type DetectedLibrary } from '../analysis/js-libraries';
import { excerptAround, formatRequest, formatResponse } from '../analysis/probe-answers';
import frameworkAdvisories from '../data/framework-advisories.json';
import { defineCheck, type Exchange, type FindingDraft, type Site } from '../types';

const ID = 'vulnerable-js-library';
/** Frameworks (Next.js, Nuxt, ...) are framework-vulnerable-version's job: reported once, with its read-only confirmations. */
const FRAMEWORKS = new Set(Object.keys(frameworkAdvisories.libraries));

interface ScriptSource {
  url: string;
  exchange?: Exchange;
  /** Text to search for banners; inline scripts and fetched assets. */
  content?: string;
}

/** Every script of the site once: fetched assets, inline scripts (by page) and referenced scripts that were not fetched. */
function scripts(site: Site): ScriptSource[] {
  const out: ScriptSource[] = [];
  const seen = new Set<string>();
  for (const asset of site.assets) {
    if (asset.kind !== 'script' || seen.has(asset.url)) continue;
    seen.add(asset.url);
    const usable = !asset.exchange.error && asset.exchange.status >= 200 && asset.exchange.status < 300;
    out.push({ url: asset.url, exchange: asset.exchange, content: usable ? asset.exchange.body : undefined });
  }
  for (const page of site.pages) {
    const inline = (page.html?.scripts ?? []).filter((script) => script.inline).map((script) => script.inline!);
    // Angular writes ng-version into server-rendered HTML; the page itself is searched for that.
    out.push({ url: page.url, exchange: page.exchange, content: [...inline, /ng-version="/.test(page.exchange.body) ? page.exchange.body.slice(0, 200_000) : ''].join('\n') });
    for (const script of page.html?.scripts ?? []) {
      if (!script.src || seen.has(script.src)) continue;
      seen.add(script.src);
      out.push({ url: script.src });
    }
  }
  return out;
}

function describe(detected: DetectedLibrary): string {
  switch (detected.source) {
    case 'filecontent':
      return 'its banner or version string in the script';
    case 'cdn':
      return 'the CDN path of the script';
    default:
      return 'the script URL';
  }
}

export const vulnerableJsLibrary = defineCheck({
  id: ID,
  family: 'libraries',
  title: 'JavaScript library with known vulnerabilities',
  severity: 'medium',
  confidence: 'high',
  cwe: 1395,
  owasp: 'A03',
  description:
    'Identifies JavaScript libraries and their versions from script URLs, CDN paths and banners inside scripts and bundles, and matches them against Retire.js-style advisories (CVE/GHSA), including end-of-life versions.',
  remediation:
    'Upgrade the library to a version outside every listed advisory range (npm install <package>@latest, then rebuild), or remove it if it is no longer used. For end-of-life libraries, migrate to a maintained successor.',
  references: [
    'https://retirejs.github.io/retire.js/',
    'https://www.zaproxy.org/docs/alerts/10003/',
    'https://owasp.org/Top10/2025/A03_2025-Software_Supply_Chain_Failures/',
    'https://github.com/advisories',
  ],
  run(site) {
    const findings: FindingDraft[] = [];
    const reported = new Set<string>();
    for (const script of scripts(site)) {
      const detected = [...detectFromUrl(script.url), ...(script.content ? detectFromContent(script.content) : [])];
      for (const hit of detected) {
        if (FRAMEWORKS.has(hit.library)) continue;
        const key = `${hit.library}@${hit.version}`;
        if (reported.has(`${script.url}|${key}`)) continue;
        const advisories = advisoriesFor(hit.library, hit.version);
        if (advisories.length === 0) continue;
        reported.add(`${script.url}|${key}`);
        const eolOnly = advisories.every(isEndOfLife);
        const fixed = advisories
          .filter((advisory) => !isEndOfLife(advisory))
          .map((advisory) => advisory.below)
          .filter((below) => !/^\d+\.999/.test(below) && !/^999/.test(below));
        const list = advisories
          .slice(0, 12)
          .map(
            (advisory) =>
              `${advisory.severity.toUpperCase()} ${advisoryIds(advisory)}: ${advisory.identifiers.summary ?? 'see references'}${/999/.test(advisory.below) ? '' : ` (fixed in ${advisory.below})`}`,
          )
          .join('; ');
        const links = [
          ...new Set(
            advisories.flatMap((advisory) => (advisory.identifiers.githubID ? [`https://github.com/advisories/${advisory.identifiers.githubID}`] : advisory.info.slice(0, 1))),
          ),
        ].slice(0, 12);
        const npm = ADVISORIES.libraries[hit.library]?.npm;
        findings.push({
          url: script.url,
          key,
          severity: eolOnly ? 'low' : maxSeverity(advisories),
          confidence: hit.source === 'filename' ? 'medium' : 'high',
          title: eolOnly ? `End-of-life JavaScript library: ${hit.name} ${hit.version}` : `${hit.name} ${hit.version} has known vulnerabilities`,
          detail:
            `${hit.name} ${hit.version}${npm ? ` (npm ${npm})` : ''} was identified from ${describe(hit)}. ` +
            `${advisories.length} advisor${advisories.length === 1 ? 'y applies' : 'ies apply'}: ${list}${advisories.length > 12 ? '; …' : ''}.` +
            (fixed.length ? ` Upgrade to at least ${fixed.sort((a, b) => (a < b ? 1 : -1))[0]} or the latest release.` : ''),
          evidence: {
            request: script.exchange ? formatRequest(script.exchange) : `GET ${script.url}`,
            response: script.exchange
              ? formatResponse(script.exchange, {
                  headers: ['content-type', 'content-length'],
                  excerpt:
                    hit.index !== undefined && script.exchange.body.includes(hit.match)
                      ? excerptAround(script.exchange.body, script.exchange.body.indexOf(hit.match), 400)
                      : hit.match,
                })
              : undefined,
            match: `${hit.match}\n${links.join('\n')}`,
          },
        });
      }
    }
    return findings;
  },
});
