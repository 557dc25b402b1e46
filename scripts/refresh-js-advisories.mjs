#!/usr/bin/env node
// Refreshes engine/data/js-advisories.json from the Retire.js vulnerability repository.
//
//   node scripts/refresh-js-advisories.mjs                 downloads RETIRE_URL
//   node scripts/refresh-js-advisories.mjs ./jsrepo.json   reads a local copy (offline, reviewable)
//   ... --keep-ours                                        adds only what we lack (for a copy older than our file)
//
// What it does: every Retire.js library becomes an entry in our format (extractors uri/filename/filecontent with the
// §§version§§ placeholder kept, vulnerabilities {atOrAbove?, below, severity, cwe, identifiers, info}); Retire's
// func/ast/hashes/filecontentreplace extractors are dropped because the engine does not execute scripts.
// Our curated data survives: extractors we wrote are kept next to Retire's (deduplicated), advisories marked
// "origin": "vibeeval" are kept unless Retire now has the same CVE/GHSA for an overlapping range, and libraries
// Retire does not know are kept whole. Our display names, npm names and CDN aliases are kept.
// Retire.js data is Apache-2.0 licensed; the source block of the output says so. The date is today's.
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compareVersions, requiredLiteral } from '../engine/analysis/advisory-matching.mjs';

export const RETIRE_URL = 'https://raw.githubusercontent.com/RetireJS/retire.js/master/repository/jsrepository-v4.json';
const OUTPUT = join(dirname(fileURLToPath(import.meta.url)), '..', 'engine', 'data', 'js-advisories.json');
const SEVERITIES = new Set(['low', 'medium', 'high', 'critical']);
/** Retire.js entries that are not libraries. */
const SKIP = new Set(['retire-example', 'dont check']);

function unique(list) {
  return [...new Set(list.filter((item) => typeof item === 'string' && item.length > 0))];
}

/** The first line of a summary that says something: GitHub advisories open with headings such as "## Summary". */
export function summaryLine(summary) {
  const lines = summary
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const line = lines.find((text) => !/^#+\s/.test(text)) ?? lines[0] ?? '';
  return line.replace(/^#+\s*/, '').slice(0, 300);
}

/** One Retire.js vulnerability in our shape, or undefined when it lacks a usable range. */
export function convertVulnerability(vuln) {
  if (typeof vuln?.below !== 'string') return undefined;
  const ids = vuln.identifiers ?? {};
  const identifiers = {};
  if (typeof ids.summary === 'string') identifiers.summary = summaryLine(ids.summary);
  if (Array.isArray(ids.CVE)) identifiers.CVE = unique(ids.CVE).filter((cve) => /^CVE-\d{4}-\d{4,}$/.test(cve));
  if (typeof ids.githubID === 'string') identifiers.githubID = ids.githubID;
  for (const key of ['issue', 'bug', 'PR', 'retid']) if (typeof ids[key] === 'string') identifiers[key] = ids[key];
  if (identifiers.CVE?.length === 0) delete identifiers.CVE;
  const out = {};
  if (typeof vuln.atOrAbove === 'string' && vuln.atOrAbove !== '0') out.atOrAbove = vuln.atOrAbove;
  out.below = vuln.below;
  out.severity = SEVERITIES.has(vuln.severity) ? vuln.severity : 'medium';
  out.cwe = unique(vuln.cwe ?? []);
  out.identifiers = identifiers;
  out.info = unique(vuln.info ?? []).slice(0, 8);
  return out;
}

export { compareVersions };

/** A range the engine can use: a readable upper bound, and a lower bound below it (Retire has a few like 1.4.0 to 1.4.0-beta.2). */
function usableRange(vuln) {
  if (compareVersions(vuln.below, '0.0.1') !== 1) return false;
  return vuln.atOrAbove === undefined || compareVersions(vuln.atOrAbove, vuln.below) === -1;
}

// Content patterns without a required literal would run on every script of every scan, so they are not imported.
export { requiredLiteral };

const VERSION_CLASS = '[0-9][0-9a-zA-Z._\\-]*';

/** An extractor the engine can run: it compiles, captures the version, and (for contents) has a prefilter literal. */
function usableExtractor(kind, pattern) {
  const source = pattern.split('§§version§§').join(VERSION_CLASS);
  try {
    if (new RegExp(`${source}|`).exec('').length < 2) return false;
  } catch {
    return false;
  }
  return kind !== 'filecontent' || requiredLiteral(source) !== undefined;
}

function advisoryKeys(vuln) {
  return [...(vuln.identifiers?.CVE ?? []), ...(vuln.identifiers?.githubID ? [vuln.identifiers.githubID] : [])];
}

const rangeKey = (vuln) => `${vuln.atOrAbove ?? ''}|${vuln.below}`;

/** Ours first, then Retire's advisories we lack: by CVE/GHSA id, or by range for those without ids. */
function addMissing(ours, imported) {
  const ids = new Set(ours.flatMap(advisoryKeys));
  const ranges = new Set(ours.map(rangeKey));
  const added = imported.filter((vuln) => {
    const keys = advisoryKeys(vuln);
    return keys.length ? !keys.some((id) => ids.has(id)) : !ranges.has(rangeKey(vuln));
  });
  return [...ours, ...added];
}

/**
 * Merges Retire.js data into our current file. By default Retire's advisories replace ours (except "origin":
 * "vibeeval" ones); with `keepOurs` (a copy older than our file, e.g. one bundled in another npm package) every
 * advisory we have stays and only what we lack is added, so an old copy never removes a newer advisory.
 */
export function convert(retire, current, today = new Date().toISOString().slice(0, 10), { keepOurs = false } = {}) {
  const libraries = {};
  const ours = current?.libraries ?? {};
  // Our libraries keep their place (stable diffs, and findings keep their order); new ones follow in Retire's order.
  for (const key of Object.keys(ours)) libraries[key] = undefined;
  for (const [key, entry] of Object.entries(retire)) {
    if (SKIP.has(key) || !entry || typeof entry !== 'object') continue;
    const mine = ours[key] ?? {};
    const extractors = {};
    for (const kind of ['uri', 'filename', 'filecontent']) {
      const merged = unique([...(mine.extractors?.[kind] ?? []), ...(entry.extractors?.[kind] ?? []).filter((pattern) => usableExtractor(kind, pattern))]);
      if (merged.length) extractors[kind] = merged;
    }
    if (Object.keys(extractors).length === 0) continue; // hash- or AST-only libraries cannot be detected here
    const imported = (entry.vulnerabilities ?? []).map(convertVulnerability).filter(Boolean).filter(usableRange);
    const vulnerabilities = keepOurs ? addMissing(mine.vulnerabilities ?? [], imported) : imported;
    const known = new Set(vulnerabilities.flatMap(advisoryKeys));
    for (const vuln of keepOurs ? [] : (mine.vulnerabilities ?? [])) {
      if (vuln.origin === 'vibeeval' && !advisoryKeys(vuln).some((id) => known.has(id))) vulnerabilities.push(vuln);
    }
    const library = {};
    if (mine.name) library.name = mine.name;
    const npm = mine.npm ?? entry.npmname;
    if (npm) library.npm = npm;
    if (mine.aliases) library.aliases = mine.aliases;
    library.extractors = extractors;
    library.vulnerabilities = vulnerabilities;
    libraries[key] = library;
  }
  for (const [key, entry] of Object.entries(ours)) if (libraries[key] === undefined) libraries[key] = entry;
  return {
    $comment: current?.$comment ?? 'Advisories for client-side JavaScript libraries (Retire.js format).',
    source: {
      name: 'Retire.js vulnerability repository (jsrepository-v4.json)',
      url: 'https://github.com/RetireJS/retire.js/blob/master/repository/jsrepository-v4.json',
      licence: 'Apache-2.0',
      notes: keepOurs
        ? 'Merged by scripts/refresh-js-advisories.mjs --keep-ours: every advisory of the previous file kept, Retire.js libraries, extractors and advisories it lacked added.'
        : 'Converted by scripts/refresh-js-advisories.mjs; entries with "origin": "vibeeval" and our own extractors are kept from the previous file.',
    },
    updated: today,
    libraries,
  };
}

async function main() {
  const args = process.argv.slice(2);
  const keepOurs = args.includes('--keep-ours');
  const input = args.find((arg) => !arg.startsWith('--'));
  let text;
  if (input) {
    text = await readFile(input, 'utf8');
  } else {
    const response = await fetch(RETIRE_URL);
    if (!response.ok) throw new Error(`GET ${RETIRE_URL}: HTTP ${response.status}`);
    text = await response.text();
  }
  const retire = JSON.parse(text);
  const current = JSON.parse(await readFile(OUTPUT, 'utf8').catch(() => '{}'));
  const next = convert(retire, current, undefined, { keepOurs });
  await writeFile(OUTPUT, `${JSON.stringify(next, null, 2)}\n`);
  const advisories = Object.values(next.libraries).reduce((sum, library) => sum + library.vulnerabilities.length, 0);
  console.log(`Wrote ${OUTPUT}: ${Object.keys(next.libraries).length} libraries, ${advisories} advisories (${next.updated}).`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
