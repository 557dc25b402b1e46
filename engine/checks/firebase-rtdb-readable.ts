import { analyzeFirebase } from '../analysis/firebase';
import { okJson } from '../analysis/probe-answers';
import { describeSightings, rateExposure, type ExposureRating } from '../analysis/data-exposure';
import { defineCheck, type FindingDraft, type ProbeRequest, type Site, type SiteBeforeProbes } from '../types';

const ID = 'firebase-rtdb-readable';
const MAX_DATABASES = 3;
/** Collections whose first record is read in the second round: two per database, people first. */
const MAX_COLLECTIONS = 2;
const PEOPLE = /user|customer|member|profile|account|contact|lead|subscriber|client|patient|employee|student|order|booking/i;
const SEVERITY_RANK = { info: 0, low: 1, medium: 2, high: 3, critical: 4 } as const;

function plan(site: SiteBeforeProbes): Array<{ root: string; probe: ProbeRequest }> {
  return analyzeFirebase(site)
    .databaseUrls.slice(0, MAX_DATABASES)
    .map((root) => ({
      root,
      // shallow=true returns only the top-level keys (true for objects), not the whole tree.
      probe: { key: `${ID}:${new URL(root).host}`, method: 'GET', url: `${root}/.json?shallow=true` },
    }));
}

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** One record of each of the first collections under the root (children the shallow read showed as `true`). */
function recordProbes(site: Site): Array<{ root: string; collection: string; probe: ProbeRequest }> {
  return plan(site).flatMap(({ root, probe }) => {
    const data = okJson(site.probes.get(probe.key));
    if (!isRecord(data)) return [];
    const collections = Object.keys(data).filter((key) => data[key] === true);
    const ordered = [...collections.filter((key) => PEOPLE.test(key)), ...collections.filter((key) => !PEOPLE.test(key))].slice(0, MAX_COLLECTIONS);
    return ordered.map((collection) => ({
      root,
      collection,
      // orderBy="$key"&limitToFirst=1: one child, however large the collection.
      probe: { key: `${probe.key}:${collection}`, method: 'GET' as const, url: `${root}/${encodeURIComponent(collection)}.json?orderBy=%22%24key%22&limitToFirst=1` },
    }));
  });
}

/** The worst of the root's own values and the first record of each collection read. */
function rate(site: Site, root: string, data: Record<string, unknown>): ExposureRating {
  const ratings: ExposureRating[] = [];
  const primitives = Object.fromEntries(Object.entries(data).filter(([, value]) => typeof value === 'string' || typeof value === 'number'));
  if (Object.keys(primitives).length > 0) ratings.push(rateExposure({ columns: Object.keys(primitives), row: primitives, what: 'the database root' }));
  for (const read of recordProbes(site).filter((r) => r.root === root)) {
    const answer = okJson(site.probes.get(read.probe.key));
    const record = isRecord(answer) ? Object.values(answer)[0] : undefined;
    if (isRecord(record)) ratings.push(rateExposure({ columns: Object.keys(record), row: record, subject: read.collection, what: `the first record of "${read.collection}"` }));
  }
  if (ratings.length === 0) return rateExposure({ columns: Object.keys(data) });
  return ratings.reduce((worst, r) => (SEVERITY_RANK[r.severity] > SEVERITY_RANK[worst.severity] ? r : worst));
}

export const firebaseRtdbReadable = defineCheck({
  id: ID,
  family: 'firebase',
  title: 'Firebase Realtime Database readable without signing in',
  severity: 'high',
  confidence: 'high',
  cwe: 862,
  owasp: 'A01',
  description:
    'Reads the root of the Realtime Database named in the site\'s Firebase config with GET /.json?shallow=true and no credentials, then one record of up to two collections under it, rated by what their values hold. Locked databases answer 401 "Permission denied"; open ones list their top-level keys.',
  remediation:
    'Replace open rules (".read": true) with rules that require auth and scope reads to the user\'s own data, e.g. "users": { "$uid": { ".read": "auth != null && auth.uid === $uid" } }, then test them in the Rules Playground.',
  references: [
    'https://firebase.google.com/docs/database/security',
    'https://firebase.google.com/docs/rules/insecure-rules',
    'https://firebase.google.com/docs/database/rest/retrieve-data#shallow',
  ],
  probes(site) {
    return plan(site).map((p) => p.probe);
  },
  followUpProbes(site) {
    return recordProbes(site).map((r) => r.probe);
  },
  appliesTo(site) {
    return analyzeFirebase(site).databaseUrls.length > 0;
  },
  run(site) {
    const findings: FindingDraft[] = [];
    for (const { root, probe } of plan(site)) {
      const answer = site.probes.get(probe.key);
      if (!answer || answer.error || answer.status !== 200) continue;
      const data = okJson(answer);
      if (data === null || data === undefined) continue; // readable but empty, or rules that return null: nothing exposed
      const keys = isRecord(data) ? Object.keys(data) : [];
      const rating = isRecord(data) ? rate(site, root, data) : rateExposure({ columns: [] });
      const seen = describeSightings(rating);
      findings.push({
        url: root,
        severity: rating.severity,
        detail:
          `The Realtime Database at ${root} can be read without signing in` +
          (keys.length > 0 ? `; top-level keys: ${keys.slice(0, 20).join(', ')}${keys.length > 20 ? ', …' : ''}.` : '.') +
          ` ${rating.reason}`,
        evidence: {
          request: `GET ${probe.url}`,
          response: [`HTTP 200`, `${keys.length} top-level key${keys.length === 1 ? '' : 's'} (values not kept)`, seen.length > 0 ? `Seen (masked): ${seen.join('; ')}` : undefined]
            .filter(Boolean)
            .join('\n'),
          match: keys.length > 0 ? keys.slice(0, 20).join(', ') : 'non-null root',
        },
        key: new URL(root).host,
      });
    }
    return findings;
  },
});
