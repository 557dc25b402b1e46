#!/usr/bin/env node
// Refreshes engine/data/js-advisories.json from the Retire.js vulnerability repository.
//
//   node scripts/refresh-js-advisories.mjs                 downloads RETIRE_URL
//   node scripts/refresh-js-advisories.mjs ./jsrepo.json   reads a local copy (offline, reviewable)
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

export const RETIRE_URL = 'https://raw.githubusercontent.com/RetireJS/retire.js/master/repository/jsrepository-v4.json';
const OUTPUT = join(dirname(fileURLToPath(import.meta.url)), '..', 'engine', 'data', 'js-advisories.json');
const SEVERITIES = new Set(['low', 'medium', 'high', 'critical']);
/** Retire.js entries that are not libraries. */
const SKIP = new Set(['retire-example', 'dont check']);

function unique(list) {
  return [...new Set(list.filter((item) => typeof item === 'string' && item.length > 0))];
}

/** One Retire.js vulnerability in our shape, or undefined when it lacks a usable range. */
export function convertVulnerability(vuln) {
  if (typeof vuln?.below !== 'string') return undefined;
  const ids = vuln.identifiers ?? {};
  const identifiers = {};
  if (typeof ids.summary === 'string') identifiers.summary = ids.summary.split('\n')[0].replace(/^#+\s*/, '').slice(0, 300);
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

function advisoryKeys(vuln) {
  return [...(vuln.identifiers?.CVE ?? []), ...(vuln.identifiers?.githubID ? [vuln.identifiers.githubID] : [])];
}

/** Merges Retire.js data into our current file. */
export function convert(retire, current, today = new Date().toISOString().slice(0, 10)) {
  const libraries = {};
  const ours = current?.libraries ?? {};
  for (const [key, entry] of Object.entries(retire)) {
    if (SKIP.has(key) || !entry || typeof entry !== 'object') continue;
    const mine = ours[key] ?? {};
    const extractors = {};
    for (const kind of ['uri', 'filename', 'filecontent']) {
      const merged = unique([...(mine.extractors?.[kind] ?? []), ...(entry.extractors?.[kind] ?? [])]);
      if (merged.length) extractors[kind] = merged;
    }
    if (Object.keys(extractors).length === 0) continue; // hash- or AST-only libraries cannot be detected here
    const vulnerabilities = (entry.vulnerabilities ?? []).map(convertVulnerability).filter(Boolean);
    const known = new Set(vulnerabilities.flatMap(advisoryKeys));
    for (const vuln of mine.vulnerabilities ?? []) {
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
  for (const [key, entry] of Object.entries(ours)) if (!(key in libraries)) libraries[key] = entry;
  return {
    $comment: current?.$comment ?? 'Advisories for client-side JavaScript libraries (Retire.js format).',
    source: {
      name: 'Retire.js vulnerability repository (jsrepository-v4.json)',
      url: 'https://github.com/RetireJS/retire.js/blob/master/repository/jsrepository-v4.json',
      licence: 'Apache-2.0',
      notes: 'Converted by scripts/refresh-js-advisories.mjs; entries with "origin": "vibeeval" and our own extractors are kept from the previous file.',
    },
    updated: today,
    libraries,
  };
}

async function main() {
  const input = process.argv[2];
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
  const next = convert(retire, current);
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
