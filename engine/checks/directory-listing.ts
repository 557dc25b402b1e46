import { excerptAround, exchangeEvidence, pathProbes, probeKey, usableAnswer } from '../analysis/probe-answers';
import { defineCheck, type Exchange, type FindingDraft } from '../types';

const ID = 'directory-listing';
export const LISTING_DIRS = ['/uploads/', '/assets/', '/static/', '/images/', '/backup/'] as const;

const LISTING_SIGNATURES: ReadonlyArray<{ server: string; pattern: RegExp }> = [
  { server: 'Apache/nginx/lighttpd autoindex', pattern: /<title>\s*Index of \/[^<]*<\/title>|<h1>\s*Index of \/[^<]*<\/h1>/i },
  { server: 'IIS', pattern: /\[To Parent Directory\]/ },
  { server: 'Python http.server', pattern: /<title>Directory listing for \/[^<]*<\/title>/i },
  { server: 'Node serve-index', pattern: /<title>listing directory \/[^<]*<\/title>/i },
  { server: 'Tomcat', pattern: /<title>Directory Listing For \/[^<]*<\/title>/i },
];

/** The listing signature in a body and the entries it lists, or undefined. */
export function findListing(body: string): { server: string; index: number; entries: string[] } | undefined {
  const text = body.slice(0, 200_000);
  for (const { server, pattern } of LISTING_SIGNATURES) {
    const match = pattern.exec(text);
    if (!match) continue;
    const entries = [...text.matchAll(/<a\s[^>]*href="([^"?#]+)"[^>]*>/gi)]
      .map((m) => decodeURIComponent(m[1]!.replace(/%(?![0-9a-f]{2})/gi, '%25')))
      .filter((href) => href !== '../' && href !== '/' && !href.startsWith('http') && !/^\.\.?\/?$/.test(href) && !href.startsWith('?'));
    return { server, index: match.index, entries: [...new Set(entries)] };
  }
  return undefined;
}

export const directoryListing = defineCheck({
  id: ID,
  family: 'disclosure',
  title: 'Directory listing enabled',
  severity: 'medium',
  confidence: 'high',
  cwe: 548,
  owasp: 'A02',
  description: 'Looks for server-generated directory indexes (Apache/nginx autoindex, IIS, Python http.server, serve-index, Tomcat) on crawled pages and a few common directories.',
  remediation:
    'Disable directory indexes (Options -Indexes in Apache, autoindex off in nginx, directoryBrowse disabled in IIS) and put an index file or a 403 in directories that must stay reachable.',
  references: ['https://cwe.mitre.org/data/definitions/548.html', 'https://www.zaproxy.org/docs/alerts/0/'],
  probes: (site) => pathProbes(ID, site, LISTING_DIRS),
  run(site) {
    const findings: FindingDraft[] = [];
    const seen = new Set<string>();
    const candidates: Exchange[] = [site.root, ...site.pages.map((page) => page.exchange)];
    for (const dir of LISTING_DIRS) {
      const answer = usableAnswer(site, probeKey(ID, dir));
      if (answer) candidates.push(answer);
    }
    for (const exchange of candidates) {
      if (exchange.error || exchange.status !== 200 || seen.has(exchange.finalUrl)) continue;
      const listing = findListing(exchange.body);
      if (!listing) continue;
      seen.add(exchange.finalUrl);
      const { entries } = listing;
      findings.push({
        url: exchange.finalUrl,
        key: new URL(exchange.finalUrl).pathname,
        detail:
          `${new URL(exchange.finalUrl).pathname} shows a ${listing.server} directory index with ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}` +
          (entries.length > 0 ? ` (${entries.slice(0, 10).join(', ')}${entries.length > 10 ? ', …' : ''})` : '') +
          '. Anyone can browse and download every file in it, including ones never linked from the site.',
        evidence: exchangeEvidence(exchange, exchange.body.slice(listing.index, listing.index + 120), { excerpt: excerptAround(exchange.body, listing.index) }),
      });
    }
    return findings;
  },
});
