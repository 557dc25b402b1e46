// Finds credentials in everything a site hands to browsers. Pure over retrieved data; results are memoised per
// site so the three checks that report them (secret-in-client, public-key-in-client, supabase-service-key) and the
// Supabase/Firebase analysis scan each text once.
import type { Confidence, Severity } from '../../common/scan';
import type { SiteBeforeProbes } from '../types';
import { shannonEntropy } from './entropy';
import { maskAll, maskSecret, secretId } from './mask';
import { SECRET_RULES, findGenericSecrets, type MatchContext, type SecretRule, type SourceKind, type Verdict } from './patterns';
import { escapeRegExp } from '../escape-regexp';

/** One text a browser receives, with where it came from. */
export interface TextSource {
  kind: SourceKind;
  /** The URL that served it (for storage: the origin). */
  url: string;
  /** Human label: "script", "inline script", "source map src/lib/supabase.ts", "localStorage \"sb-auth\"". */
  where: string;
  text: string;
}

/** A credential found in one text. `secret` is the raw value: it never leaves the engine unmasked. */
export interface SecretHit {
  ruleId: string;
  provider: string;
  label: string;
  secret: string;
  start: number;
  end: number;
  severity: Severity;
  public: boolean;
  note?: string;
  dedicated?: Verdict['dedicated'];
  confidence: Confidence;
}

/** A distinct credential across the site, with every place it was seen. */
export interface FoundSecret extends Omit<SecretHit, 'start' | 'end'> {
  /** SHA-256 prefix of the secret: stable finding key. */
  id: string;
  masked: string;
  locations: Array<{ url: string; where: string; kind: SourceKind }>;
  /** The first occurrence with ~60 characters either side, every secret in it masked. */
  snippet: string;
}

const GENERIC_MIN_ENTROPY = 3.5;
const PLACEHOLDER_IN_KEY = /your[_-]?(?:api|secret|key|token)|example|placeholder|redacted/i;

/** One pass over the text finds which keywords occur (cheaper than ~150 indexOf calls over 2 MB). */
const alternation = (words: Iterable<string>, flags: string) =>
  new RegExp(
    [...new Set(words)]
      .sort((a, b) => b.length - a.length)
      .map(escapeRegExp)
      .join('|'),
    flags,
  );
const KEYWORDS = alternation(
  SECRET_RULES.flatMap((rule) => rule.keywords),
  'g',
);
const KEYWORDS_CI = alternation(
  SECRET_RULES.flatMap((rule) => rule.keywordsCi ?? []),
  'gi',
);

function presentKeywords(text: string, pattern: RegExp, lower: boolean): Set<string> {
  const present = new Set<string>();
  pattern.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = pattern.exec(text))) present.add(lower ? m[0].toLowerCase() : m[0]);
  return present;
}

function ruleApplies(rule: SecretRule, present: Set<string>, presentCi: () => Set<string>): boolean {
  if (rule.keywords.length > 0 && !rule.keywords.some((keyword) => present.has(keyword))) return false;
  if (rule.keywordsCi && rule.keywordsCi.length > 0) {
    const found = presentCi();
    if (!rule.keywordsCi.some((keyword) => found.has(keyword))) return false;
  }
  return true;
}

/** Every credential in one text, each reported once (the first, most specific rule wins). */
export function scanText(text: string, kind: SourceKind): SecretHit[] {
  const hits: SecretHit[] = [];
  const claimed = new Set<string>();
  const present = presentKeywords(text, KEYWORDS, false);
  let presentCi: Set<string> | undefined;
  const ci = () => (presentCi ??= presentKeywords(text, KEYWORDS_CI, true));
  for (const rule of SECRET_RULES) {
    if (!ruleApplies(rule, present, ci)) continue;
    rule.regex.lastIndex = 0;
    let m: RegExpExecArray | null;
    while ((m = rule.regex.exec(text))) {
      const secret = m[1] ?? m[0];
      if (claimed.has(secret)) continue;
      if (PLACEHOLDER_IN_KEY.test(secret)) continue;
      if (rule.minEntropy !== undefined && shannonEntropy(secret) < rule.minEntropy) continue;
      const start = m.index + Math.max(0, m[0].indexOf(secret));
      const ctx: MatchContext = { text, start, end: start + secret.length, kind };
      const verdict: Verdict | null = rule.decide ? rule.decide(secret, ctx) : { severity: rule.severity, public: rule.public };
      if (!verdict) continue;
      claimed.add(secret);
      hits.push({
        ruleId: rule.id,
        provider: rule.provider,
        label: verdict.label ?? rule.label,
        secret,
        start,
        end: start + secret.length,
        severity: verdict.severity,
        public: verdict.public ?? rule.public ?? false,
        note: verdict.note ?? rule.note,
        dedicated: verdict.dedicated,
        // Rules keyed on a provider name rather than a prefix are likelier to misfire.
        confidence: rule.keywords.length === 0 ? 'medium' : 'high',
      });
    }
  }
  for (const generic of findGenericSecrets(text, GENERIC_MIN_ENTROPY, shannonEntropy)) {
    if (claimed.has(generic.secret)) continue;
    if (hits.some((hit) => hit.start < generic.end && generic.start < hit.end)) continue;
    claimed.add(generic.secret);
    hits.push({
      ruleId: 'generic-secret',
      provider: 'Unknown',
      label: `High-entropy value assigned to "${generic.name.slice(0, 60)}"`,
      secret: generic.secret,
      start: generic.start,
      end: generic.end,
      severity: generic.severity,
      public: false,
      note: 'A random-looking value under a credential-like name; confirm what it is and rotate it if it is a real key.',
      confidence: 'low',
    });
  }
  return hits.sort((a, b) => a.start - b.start);
}

function sourceMapTexts(body: string, url: string): TextSource[] | undefined {
  try {
    const map = JSON.parse(body) as { sources?: unknown; sourcesContent?: unknown };
    if (!Array.isArray(map.sourcesContent)) return undefined;
    const sources = Array.isArray(map.sources) ? map.sources : [];
    const out: TextSource[] = [];
    map.sourcesContent.forEach((content: unknown, index) => {
      // Dependencies' sources are public code; their example keys are not the site's secrets.
      const name = typeof sources[index] === 'string' ? sources[index] : `source ${index}`;
      if (typeof content === 'string' && content && !/node_modules\//.test(name)) out.push({ kind: 'sourcemap', url, where: `source map ${name}`, text: content });
    });
    return out;
  } catch {
    return undefined;
  }
}

const textsMemo = new WeakMap<object, { site: SiteBeforeProbes; texts: TextSource[] }>();

/** Every text of the site a browser receives: HTML, inline and external scripts, source maps, storage, request headers. */
export function collectTexts(site: SiteBeforeProbes): TextSource[] {
  const memo = textsMemo.get(site.pages);
  if (memo && memo.site.assets === site.assets && memo.site.rendering === site.rendering) return memo.texts;
  const texts: TextSource[] = [];
  for (const page of site.pages) {
    const body = page.exchange.body;
    if (body) texts.push({ kind: 'html', url: page.url, where: 'page', text: body });
    for (const script of page.html?.scripts ?? []) {
      // Inline scripts are part of the body already, unless the body was cut at the size cap.
      if (script.inline && !body.includes(script.inline)) texts.push({ kind: 'inline-script', url: page.url, where: 'inline script', text: script.inline });
    }
  }
  for (const asset of site.assets) {
    const body = asset.exchange.body;
    if (!body) continue;
    if (asset.kind === 'sourcemap') {
      const parts = sourceMapTexts(body, asset.url);
      if (parts) {
        texts.push(...parts);
        continue;
      }
    }
    texts.push({ kind: asset.kind === 'sourcemap' ? 'sourcemap' : 'script', url: asset.url, where: asset.kind, text: body });
  }
  for (const request of site.rendering.requests) {
    const headers = Object.entries(request.requestHeaders ?? {}).map(([name, value]) => `${name}: ${value}`);
    texts.push({ kind: 'request', url: request.url, where: `${request.method} request made by the page`, text: [request.url, ...headers].join('\n') });
  }
  for (const item of site.rendering.storage) {
    texts.push({ kind: 'storage', url: item.origin, where: `${item.kind}Storage "${item.key.slice(0, 80)}"`, text: `${item.key}=${item.value}` });
  }
  textsMemo.set(site.pages, { site, texts });
  return texts;
}

function snippetOf(text: string, hit: SecretHit, secrets: string[]): string {
  const from = Math.max(0, hit.start - 60);
  const raw = text.slice(from, hit.end + 60).replace(/\s+/g, ' ');
  return `${from > 0 ? '…' : ''}${maskAll(raw, secrets)}${hit.end + 60 < text.length ? '…' : ''}`;
}

const secretsMemo = new WeakMap<object, { site: SiteBeforeProbes; found: FoundSecret[] }>();

/** Every distinct credential of the site, in order of first appearance. */
export function findSecrets(site: SiteBeforeProbes): FoundSecret[] {
  const memo = secretsMemo.get(site.pages);
  if (memo && memo.site.assets === site.assets && memo.site.rendering === site.rendering) return memo.found;
  const bySecret = new Map<string, FoundSecret>();
  for (const source of collectTexts(site)) {
    const hits = scanText(source.text, source.kind);
    const secrets = hits.map((hit) => hit.secret);
    for (const hit of hits) {
      // A request URL can carry the key itself (?key=AIza…): locations are masked too.
      const location = { url: maskAll(source.url, secrets), where: source.where, kind: source.kind };
      const known = bySecret.get(hit.secret);
      if (known) {
        if (!known.locations.some((l) => l.url === location.url && l.where === location.where)) known.locations.push(location);
        continue;
      }
      const { start: _start, end: _end, ...rest } = hit;
      bySecret.set(hit.secret, {
        ...rest,
        id: secretId(hit.secret),
        masked: maskSecret(hit.secret),
        locations: [location],
        snippet: snippetOf(source.text, hit, secrets),
      });
    }
  }
  const found = [...bySecret.values()];
  secretsMemo.set(site.pages, { site, found });
  return found;
}

const MAX_LOCATIONS = 8;

/** Where a credential was seen, one line per place (capped), for evidence. */
export function describeLocations(secret: FoundSecret): string {
  const lines = secret.locations.slice(0, MAX_LOCATIONS).map((l) => `${l.where}: ${l.url}`);
  if (secret.locations.length > MAX_LOCATIONS) lines.push(`… and ${secret.locations.length - MAX_LOCATIONS} more places`);
  return lines.join('\n');
}
