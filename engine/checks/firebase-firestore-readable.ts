import { analyzeFirebase } from '../analysis/firebase';
import { sensitiveFields } from '../analysis/sensitive-fields';
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

/** Field names of the first document of a Firestore REST list answer; never the values. */
function firstDocumentFields(body: string): string[] | undefined {
  try {
    const answer = JSON.parse(body) as { documents?: Array<{ fields?: Record<string, unknown> }> };
    const first = answer.documents?.[0];
    return first ? Object.keys(first.fields ?? {}) : undefined;
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
    'Lists one document of each Firestore collection the site uses (and a few common names) through the REST API without credentials. Security Rules that allow it answer with the document; locked collections answer 403 PERMISSION_DENIED.',
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
      const fields = firstDocumentFields(answer.body);
      if (!fields) continue; // {} : empty or missing collection, nothing to read
      const sensitive = sensitiveFields(fields);
      findings.push({
        url: p.probe.url.split('?', 1)[0]!,
        title: `Firestore collection "${p.collection}" readable without signing in`,
        severity: sensitive.length > 0 ? 'critical' : 'high',
        detail:
          `Anyone can list documents of "${p.collection}" in project ${p.projectId}.` +
          (sensitive.length > 0 ? ` Sensitive fields: ${sensitive.slice(0, 12).join(', ')}.` : '') +
          (p.guessed ? ' (The collection name was guessed, not taken from the site.)' : ''),
        evidence: {
          request: `GET ${p.probe.url}`,
          response: `HTTP 200\nFields of the first document (values not kept): ${fields.slice(0, 40).join(', ')}`,
          match: `documents[0].fields: ${fields.slice(0, 20).join(', ')}`,
        },
        key: `${p.projectId}/${p.collection}`,
      });
    }
    return findings;
  },
});
