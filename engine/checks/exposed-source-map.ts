import { bodyExcerpt, exchangeEvidence, looksLikeHtmlDocument, probeKey, usableAnswer } from '../analysis/probe-answers';
import { header } from '../http/headers';
import { defineCheck, type Exchange, type ProbeRequest, type Site, type SiteBeforeProbes } from '../types';

const ID = 'exposed-source-map';
const MAX_PROBES = 8;

export interface SourceMapInfo {
  sources: string[];
  /** Number of sources whose original text is embedded (sourcesContent). */
  embedded: number;
}

/** Reads a source map (version 3 with sources or mappings); undefined for anything else. Truncated maps are read by pattern. */
export function parseSourceMap(body: string): SourceMapInfo | undefined {
  const head = body.trimStart().slice(0, 200);
  if (!head.startsWith('{') && !head.startsWith(")]}'")) return undefined;
  if (!/"version"\s*:\s*3\b/.test(body.slice(0, 4_000)) && !/"version"\s*:\s*3\b/.test(body.slice(-4_000))) return undefined;
  try {
    const json = JSON.parse(body.replace(/^\)\]\}'[^\n]*\n/, '')) as { version?: unknown; sources?: unknown; mappings?: unknown; sourcesContent?: unknown; sections?: unknown };
    if (json.version !== 3) return undefined;
    const sources = Array.isArray(json.sources) ? json.sources.filter((s): s is string => typeof s === 'string') : [];
    if (sources.length === 0 && typeof json.mappings !== 'string' && !Array.isArray(json.sections)) return undefined;
    const embedded = Array.isArray(json.sourcesContent) ? json.sourcesContent.filter((s) => typeof s === 'string' && s.length > 0).length : 0;
    return { sources, embedded };
  } catch {
    // Truncated by the size cap: fall back to patterns on what arrived.
    if (!/"(?:mappings|sources)"\s*:/.test(body)) return undefined;
    const list = /"sources"\s*:\s*\[([^\]]{0,20000})/.exec(body)?.[1] ?? '';
    const sources = [...list.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]!);
    const embedded = /"sourcesContent"\s*:\s*\[\s*"/.test(body) ? Math.max(1, sources.length) : 0;
    return { sources, embedded };
  }
}

function stripQuery(url: string): string {
  const parsed = new URL(url);
  parsed.search = '';
  parsed.hash = '';
  return parsed.href;
}

/** True when a script says where its map is (comment or header), in which case retrieval fetched it already. */
function referencesMap(exchange: Exchange): boolean {
  return /[#@]\s*sourceMappingURL\s*=\s*\S/.test(exchange.body.slice(-2_000)) || Boolean(header(exchange.headers, 'sourcemap') ?? header(exchange.headers, 'x-sourcemap'));
}

/** Same-origin scripts that do not reference a map: their `<script>.map` is guessed. */
function guessedMaps(site: SiteBeforeProbes): Array<{ key: string; url: string; script: string }> {
  const out: Array<{ key: string; url: string; script: string }> = [];
  const seen = new Set<string>();
  for (const asset of site.assets) {
    if (asset.kind !== 'script' || asset.exchange.error || asset.exchange.status !== 200) continue;
    let url: string;
    try {
      if (new URL(asset.url).origin !== site.origin) continue;
      url = `${stripQuery(asset.url)}.map`;
    } catch {
      continue;
    }
    if (seen.has(url) || referencesMap(asset.exchange)) continue;
    if (site.assets.some((other) => other.kind === 'sourcemap' && other.referrer === asset.url)) continue;
    seen.add(url);
    out.push({ key: probeKey(ID, new URL(url).pathname), url, script: asset.url });
    if (out.length >= MAX_PROBES) break;
  }
  return out;
}

function mapsFound(site: Site): Array<{ exchange: Exchange; info: SourceMapInfo }> {
  const found: Array<{ exchange: Exchange; info: SourceMapInfo }> = [];
  for (const asset of site.assets) {
    if (asset.kind !== 'sourcemap' || asset.exchange.error || asset.exchange.status < 200 || asset.exchange.status >= 300) continue;
    if (looksLikeHtmlDocument(asset.exchange.body)) continue;
    const info = parseSourceMap(asset.exchange.body);
    if (info) found.push({ exchange: asset.exchange, info });
  }
  for (const guess of guessedMaps(site)) {
    const answer = usableAnswer(site, guess.key);
    const info = answer && parseSourceMap(answer.body);
    if (answer && info) found.push({ exchange: answer, info });
  }
  return found;
}

export const exposedSourceMap = defineCheck({
  id: ID,
  family: 'exposed-files',
  title: 'JavaScript source maps exposed',
  severity: 'low',
  confidence: 'high',
  cwe: 540,
  owasp: 'A02',
  description:
    'Reads the source maps the scripts reference and tries <script>.map for same-origin scripts without a reference; reports maps that are publicly readable, and whether they embed the original source.',
  remediation:
    'Do not deploy .map files to production (e.g. build.sourcemap: false in Vite, productionBrowserSourceMaps: false in Next.js), or upload them only to your error tracker (Sentry) and delete them from the public output.',
  references: [
    'https://cwe.mitre.org/data/definitions/540.html',
    'https://developer.mozilla.org/en-US/docs/Glossary/Source_map',
    'https://vite.dev/config/build-options#build-sourcemap',
  ],
  probes: (site): ProbeRequest[] => guessedMaps(site).map(({ key, url }) => ({ key, method: 'GET', url })),
  run(site) {
    const maps = mapsFound(site);
    if (maps.length === 0) return [];
    const withSource = maps.filter(({ info }) => info.embedded > 0);
    const example = withSource[0] ?? maps[0]!;
    const originals = [...new Set(maps.flatMap(({ info }) => info.sources))].filter((s) => !/node_modules|webpack\/runtime|vite\/|\(webpack\)/.test(s));
    const urls = maps.map(({ exchange }) => exchange.url);
    return [
      {
        url: example.exchange.url,
        key: 'source-maps',
        severity: withSource.length > 0 ? 'medium' : 'low',
        detail:
          `${maps.length} source map${maps.length === 1 ? ' is' : 's are'} publicly readable (${urls.slice(0, 5).join(', ')}${urls.length > 5 ? ', …' : ''}). ` +
          (withSource.length > 0
            ? `${withSource.length} embed the original source code (sourcesContent), so anyone can read the unminified application code, comments and any secrets in it.`
            : 'They reveal the original file layout and names.') +
          (originals.length > 0 ? ` Original files include ${originals.slice(0, 8).join(', ')}.` : ''),
        evidence: exchangeEvidence(
          example.exchange,
          `version 3 source map with ${example.info.sources.length} sources${example.info.embedded > 0 ? ` and ${example.info.embedded} embedded` : ''}`,
          {
            excerpt: bodyExcerpt(example.exchange.body, 0, 600),
          },
        ),
      },
    ];
  },
});
