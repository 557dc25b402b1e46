// Detects JavaScript libraries and their versions in script URLs and contents, and matches them against the
// advisory data in engine/data/js-advisories.json (Retire.js format, see that file's $comment).
// Bundles (Vite, webpack) hold many libraries, so every library is tried on every script; a cheap substring
// prefilter keeps multi-megabyte bundles fast: a regex runs only when the literal text it requires is present.
import advisoryData from '../data/js-advisories.json';
import type { Severity } from '../types';
import { compareVersions, requiredLiteral } from './advisory-matching.mjs';
import { escapeRegExp } from '../escape-regexp';

export interface Advisory {
  atOrAbove?: string;
  below: string;
  severity: 'low' | 'medium' | 'high' | 'critical';
  cwe: string[];
  identifiers: { summary?: string; CVE?: string[]; githubID?: string; [other: string]: unknown };
  info: string[];
  origin?: string;
}

export interface LibraryEntry {
  name?: string;
  npm?: string;
  /** Names the library goes by in CDN paths (cdnjs, jsdelivr, unpkg). */
  aliases?: string[];
  extractors: { uri?: string[]; filename?: string[]; filecontent?: string[] };
  vulnerabilities: Advisory[];
}

export interface AdvisoryDatabase {
  source: { name: string; url: string; licence: string };
  updated: string;
  libraries: Record<string, LibraryEntry>;
}

export interface DetectedLibrary {
  /** Key in the advisory data, e.g. "jquery". */
  library: string;
  /** Display name. */
  name: string;
  version: string;
  /** How the version was found. */
  source: 'uri' | 'filename' | 'filecontent' | 'cdn';
  /** The text that matched. */
  match: string;
  /** Offset of the match in the content, for filecontent. */
  index?: number;
}

/** The placeholder Retire.js uses for the version in its patterns. */
export const VERSION_PLACEHOLDER = '§§version§§';
// Linear: one character class, greedy, followed by literal text in every pattern.
const VERSION_CLASS = '[0-9][0-9a-zA-Z._\\-]*';

interface CompiledPattern {
  regex: RegExp;
  /** Text that every match contains, for the prefilter; undefined when none could be derived. */
  literal?: string;
}

interface CompiledLibrary {
  key: string;
  entry: LibraryEntry;
  uri: CompiledPattern[];
  filename: CompiledPattern[];
  filecontent: CompiledPattern[];
  /** When every content pattern has a literal: the library is skipped unless one of them occurs. */
  contentLiterals?: string[];
}

export { requiredLiteral };

function compile(patterns: string[] | undefined, flags: string): CompiledPattern[] {
  const out: CompiledPattern[] = [];
  for (const pattern of patterns ?? []) {
    const source = pattern.split(VERSION_PLACEHOLDER).join(VERSION_CLASS);
    try {
      out.push({ regex: new RegExp(source, flags), literal: flags.includes('i') ? undefined : requiredLiteral(source) });
    } catch {
      // A pattern in a syntax JavaScript does not accept (possible after a refresh): skip it rather than fail the scan.
    }
  }
  return out;
}

function compileDatabase(db: AdvisoryDatabase): CompiledLibrary[] {
  return Object.entries(db.libraries).map(([key, entry]) => {
    const filecontent = compile(entry.extractors.filecontent, '');
    const literals = filecontent.map((pattern) => pattern.literal);
    return {
      key,
      entry,
      uri: compile(entry.extractors.uri, 'i'),
      filename: compile(entry.extractors.filename, 'i'),
      filecontent,
      contentLiterals: literals.every((literal): literal is string => Boolean(literal)) ? literals : undefined,
    };
  });
}

/** The bundled advisory data. */
export const ADVISORIES = advisoryData as unknown as AdvisoryDatabase;
const COMPILED = compileDatabase(ADVISORIES);

// The prefilter's literals, found in one pass over a script: a few hundred includes() calls over every 50 KB chunk
// of a bundle cost more than all the regexes together once the whole Retire.js repository is loaded.
const LITERALS = [...new Set(COMPILED.flatMap((library) => library.filecontent.map((pattern) => pattern.literal)).filter((literal): literal is string => Boolean(literal)))];
const LITERAL_SCAN = new RegExp(
  [...LITERALS]
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp)
    .join('|'),
  'g',
);
/** Literals that start with another one: the scan takes the longest at each position, so the shorter is present too. */
const PREFIXES = new Map(LITERALS.map((literal) => [literal, LITERALS.filter((other) => other !== literal && literal.startsWith(other))]));

function presentLiterals(content: string): Set<string> {
  const present = new Set<string>();
  if (LITERALS.length === 0) return present;
  LITERAL_SCAN.lastIndex = 0;
  let m: RegExpExecArray | null;
  while ((m = LITERAL_SCAN.exec(content))) {
    present.add(m[0]);
    for (const prefix of PREFIXES.get(m[0]) ?? []) present.add(prefix);
    // One character on, not past the match: literals may overlap ("/*! jQuery v" and "jQuery v").
    LITERAL_SCAN.lastIndex = m.index + 1;
  }
  return present;
}

function displayName(key: string, entry: LibraryEntry): string {
  return entry.name ?? key;
}

/** The version from a match: group 1, or numeric groups joined with dots (dojo's {major, minor, patch}). */
function versionOf(match: RegExpExecArray): string | undefined {
  const groups = match.slice(1).filter((group): group is string => group !== undefined);
  if (groups.length >= 2 && groups.every((group) => /^\d+$/.test(group))) return groups.join('.');
  return cleanVersion(match[1]);
}

/** A captured version without what the greedy version class also took from a file name (".min", ".slim", trailing dots). */
function cleanVersion(raw: string | undefined): string | undefined {
  let version = raw;
  for (let i = 0; version && i < 3; i++) version = version.replace(/(?<![._-])[._-]+$/, '').replace(/[.-](?:min|slim|prod|production|umd|bundle|esm|full|debug|dev|js)$/i, '');
  return version && /^\d/.test(version) ? version : undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Versions: Retire.js data has versions like 1.9.0b1, 1.0RC2, 1.5.1.2, 3.0.0-rc.1 and sentinels like 2.999.999.

export { compareVersions };

/** True when a version is inside an advisory's range [atOrAbove, below). */
export function isAffected(version: string, advisory: Pick<Advisory, 'atOrAbove' | 'below'>): boolean {
  const below = compareVersions(version, advisory.below);
  if (below === undefined || below >= 0) return false;
  if (advisory.atOrAbove === undefined) return true;
  const above = compareVersions(version, advisory.atOrAbove);
  return above !== undefined && above >= 0;
}

/** The advisories that apply to a library at a version. */
export function advisoriesFor(library: string, version: string, db: AdvisoryDatabase = ADVISORIES): Advisory[] {
  return (db.libraries[library]?.vulnerabilities ?? []).filter((advisory) => isAffected(version, advisory));
}

// ---------------------------------------------------------------------------------------------------------------
// Detection.

const CDN_PATTERNS: RegExp[] = [
  /\/npm\/((?:@[\w.-]+\/)?[\w.-]+)@(\d[\w.-]*)(?:\/|$)/i, // cdn.jsdelivr.net/npm/x@1.2.3/
  /^https?:\/\/(?:unpkg\.com|esm\.sh|cdn\.skypack\.dev|ga\.jspm\.io\/npm:)\/?((?:@[\w.-]+\/)?[\w.-]+)@(\d[\w.-]*)/i,
  /\/ajax\/libs\/([\w.-]+)\/(\d[\w.-]*)\//i, // cdnjs.cloudflare.com and ajax.googleapis.com
];

const NAME_INDEX = (() => {
  const index = new Map<string, string>();
  for (const { key, entry } of COMPILED) {
    for (const name of [key, entry.npm, ...(entry.aliases ?? [])]) if (name) index.set(name.toLowerCase(), key);
  }
  return index;
})();

function fromCdn(url: string): DetectedLibrary[] {
  for (const pattern of CDN_PATTERNS) {
    const match = pattern.exec(url);
    if (!match) continue;
    const key = NAME_INDEX.get(match[1]!.toLowerCase());
    const entry = key ? ADVISORIES.libraries[key] : undefined;
    if (!key || !entry) return [];
    return [{ library: key, name: displayName(key, entry), version: cleanVersion(match[2]) ?? match[2]!, source: 'cdn', match: match[0] }];
  }
  return [];
}

/** Libraries named with a version in a script URL (CDN paths, versioned file names). */
/** Longest script URL read: the Retire.js patterns are not all linear, and no real script URL comes near it. */
const MAX_URL_SCANNED = 2_048;

export function detectFromUrl(url: string): DetectedLibrary[] {
  let path: string;
  let file: string;
  try {
    const parsed = new URL(url);
    // The URL up to its query or fragment, at most MAX_URL_SCANNED characters: Retire.js patterns run over it.
    const end = parsed.href.search(/[?#]/);
    path = (end === -1 ? parsed.href : parsed.href.slice(0, end)).slice(0, MAX_URL_SCANNED);
    file = decodeURIComponent(parsed.pathname.split('/').pop() ?? '').slice(0, MAX_URL_SCANNED);
  } catch {
    return [];
  }
  const found: DetectedLibrary[] = [...fromCdn(path)];
  for (const { key, entry, uri, filename } of COMPILED) {
    if (found.some((hit) => hit.library === key)) continue;
    for (const [kind, patterns, subject] of [['uri', uri, path] as const, ['filename', filename, file] as const]) {
      const hit = patterns.map(({ regex }) => regex.exec(subject)).find((match): match is RegExpExecArray => Boolean(match));
      const version = hit && versionOf(hit);
      if (hit && version) {
        found.push({ library: key, name: displayName(key, entry), version, source: kind, match: hit[0] });
        break;
      }
    }
  }
  return found;
}

/** Libraries found in script contents by their banners and version strings; several per bundle. */
export function detectFromContent(content: string): DetectedLibrary[] {
  const found: DetectedLibrary[] = [];
  const present = presentLiterals(content);
  for (const { key, entry, filecontent, contentLiterals } of COMPILED) {
    if (contentLiterals && !contentLiterals.some((literal) => present.has(literal))) continue;
    const versions = new Set<string>();
    for (const { regex, literal } of filecontent) {
      if (literal && !present.has(literal)) continue;
      const match = regex.exec(content);
      const version = match && versionOf(match);
      if (!match || !version || versions.has(version)) continue;
      versions.add(version);
      found.push({ library: key, name: displayName(key, entry), version, source: 'filecontent', match: match[0].slice(0, 200), index: match.index });
    }
  }
  return found;
}

const SEVERITY_ORDER: Record<Severity, number> = { info: 0, low: 1, medium: 2, high: 3, critical: 4 };

/** The most severe of a list of advisories. */
export function maxSeverity(advisories: readonly Advisory[]): Severity {
  return advisories.reduce<Severity>((max, advisory) => (SEVERITY_ORDER[advisory.severity] > SEVERITY_ORDER[max] ? advisory.severity : max), 'info');
}

/** True for end-of-life notices (CWE-1104, use of unmaintained components). */
export function isEndOfLife(advisory: Advisory): boolean {
  return advisory.cwe.includes('CWE-1104');
}

/** Identifiers of an advisory as "CVE-… / GHSA-…", or its summary when it has none. */
export function advisoryIds(advisory: Advisory): string {
  const ids = [...(advisory.identifiers.CVE ?? []), ...(advisory.identifiers.githubID ? [advisory.identifiers.githubID] : [])];
  return ids.length ? ids.join(' / ') : 'no CVE';
}
