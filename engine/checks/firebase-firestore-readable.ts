import { analyzeFirebase } from '../analysis/firebase';
import { describeSightings, rateExposure } from '../analysis/data-exposure';
import { defineCheck, type FindingDraft, type ProbeRequest, type SiteBeforeProbes } from '../types';

const ID = 'firebase-firestore-readable';
const MAX_COLLECTIONS = 16;

function plan(site: SiteBeforeProbes): Array<{ projectId: string; collection: string; guessed: boolean; probe: ProbeRequest }> {
  const info = analyzeFirebase(site);
  const projectId = info.projectIds[0];
  if (!projectId) return [];
  return info.collections.slice(0, MAX_COLLECTIONS).map(({ name, origin }) => ({
    projectId,
    collection: name,
    guessed: origin === 'wordlist',
    probe: {
      key: `${ID}:${projectId}:${name}`,
      method: 'GET',
      url: `https://firestore.googleapis.com/v1/projects/${projectId}/databases/(default)/documents/${encodeURIComponent(name)}?pageSize=1`,
    },
  }));
}

/** A Firestore REST typed value ({ stringValue }, { integerValue }, ...) as a plain one; maps and arrays are not looked into. */
function plainValue(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return undefined;
  const typed = value as Record<string, unknown>;
  for (const kind of ['stringValue', 'integerValue', 'doubleValue', 'timestampValue', 'booleanValue'] as const) {
    if (kind in typed) return typed[kind];
  }
  return undefined;
}

/** The first document of a Firestore REST list answer: its fields as plain values, to be rated and dropped. */
export function firstDocument(body: string): Record<string, unknown> | undefined {
  try {
    const answer = JSON.parse(body) as { documents?: Array<{ fields?: Record<string, unknown> }> };
    const first = answer.documents?.[0];
    return first
      ? Object.fromEntries(
          Object.entries(first.fields ?? {})
            .slice(0, 200)
            .map(([name, value]) => [name, plainValue(value)]),
        )
      : undefined;
  } catch {
    return undefined;
  }
}

export const firebaseFirestoreReadable = defineCheck({
  id: ID,
  family: 'firebase',
  title: 'Firestore collection readable without signing in',
  severity: 'high',
  confidence: 'high',
  cwe: 862,
  owasp: 'A01',
  description:
    'Lists one document of each Firestore collection the site uses (and a few common names) through the REST API without credentials, and rates it by what its values and field names hold. Security Rules that allow it answer with the document; locked collections answer 403 PERMISSION_DENIED.',
  remediation:
    'Replace "allow read: if true" (or test-mode rules with a far expiry) by rules that require request.auth and match the owner, e.g. allow read: if request.auth != null && request.auth.uid == resource.data.ownerId; keep private fields in a separate collection.',
  references: [
    'https://firebase.google.com/docs/firestore/security/get-started',
    'https://firebase.google.com/docs/rules/insecure-rules',
    'https://firebase.google.com/docs/firestore/use-rest-api',
  ],
  probes(site) {
    return plan(site).map((p) => p.probe);
  },
  appliesTo(site) {
    return analyzeFirebase(site).projectIds.length > 0;
  },
  run(site) {
    const findings: FindingDraft[] = [];
    for (const p of plan(site)) {
      const answer = site.probes.get(p.probe.key);
      if (!answer || answer.error || answer.status !== 200) continue;
      const document = firstDocument(answer.body);
      if (!document) continue; // {} : empty or missing collection, nothing to read
      const fields = Object.keys(document);
      const rating = rateExposure({ columns: fields, row: document, subject: p.collection, what: 'the first document read' });
      const seen = describeSightings(rating);
      findings.push({
        url: p.probe.url.split('?', 1)[0]!,
        title: `Firestore collection "${p.collection}" readable without signing in`,
        severity: rating.severity,
        detail:
          `Anyone can list documents of "${p.collection}" in project ${p.projectId}. ${rating.reason}` +
          (p.guessed ? ' (The collection name was guessed, not taken from the site.)' : ''),
        evidence: {
          request: `GET ${p.probe.url}`,
          response: [
            `HTTP 200`,
            `Fields of the first document (values not kept): ${fields.slice(0, 40).join(', ')}`,
            seen.length > 0 ? `Seen in that document (masked): ${seen.join('; ')}` : undefined,
          ]
            .filter(Boolean)
            .join('\n'),
          match: `documents[0].fields: ${fields.slice(0, 20).join(', ')}`,
        },
        key: `${p.projectId}/${p.collection}`,
      });
    }
    return findings;
  },
});
