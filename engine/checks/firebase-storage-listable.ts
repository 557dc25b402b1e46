import { analyzeFirebase } from '../analysis/firebase';
import { defineCheck, type FindingDraft, type ProbeRequest, type SiteBeforeProbes } from '../types';

const ID = 'firebase-storage-listable';
const MAX_BUCKETS = 3;

function plan(site: SiteBeforeProbes): Array<{ bucket: string; probe: ProbeRequest }> {
  return analyzeFirebase(site)
    .buckets.slice(0, MAX_BUCKETS)
    .map((bucket) => ({
      bucket,
      probe: { key: `${ID}:${bucket}`, method: 'GET', url: `https://firebasestorage.googleapis.com/v0/b/${encodeURIComponent(bucket)}/o?maxResults=1` },
    }));
}

export const firebaseStorageListable = defineCheck({
  id: ID,
  family: 'firebase',
  title: 'Firebase Storage bucket listable without signing in',
  severity: 'medium',
  confidence: 'high',
  cwe: 284,
  owasp: 'A01',
  description:
    "Asks the Firebase Storage REST API, without credentials, for the first object of the bucket in the site's Firebase config. Locked buckets answer 403; listable ones reveal file names, and usually the files themselves.",
  remediation:
    'Replace "allow read: if true" in storage.rules with rules scoped to the owner, e.g. match /users/{uid}/{file=**} { allow read: if request.auth != null && request.auth.uid == uid; }, and serve public assets from a dedicated path.',
  references: ['https://firebase.google.com/docs/storage/security', 'https://firebase.google.com/docs/rules/insecure-rules'],
  probes(site) {
    return plan(site).map((p) => p.probe);
  },
  appliesTo(site) {
    return analyzeFirebase(site).buckets.length > 0;
  },
  run(site) {
    const findings: FindingDraft[] = [];
    for (const { bucket, probe } of plan(site)) {
      const answer = site.probes.get(probe.key);
      if (!answer || answer.error || answer.status !== 200) continue;
      let listing: { items?: unknown[]; prefixes?: unknown[] };
      try {
        listing = JSON.parse(answer.body) as typeof listing;
      } catch {
        continue;
      }
      const items = Array.isArray(listing.items) ? listing.items.length : 0;
      const prefixes = Array.isArray(listing.prefixes) ? listing.prefixes.length : 0;
      if (items + prefixes === 0) continue;
      findings.push({
        url: `https://firebasestorage.googleapis.com/v0/b/${bucket}/o`,
        title: `Firebase Storage bucket "${bucket}" listable without signing in`,
        detail: `Anyone can list the files of bucket ${bucket}: the first page returned ${items} file${items === 1 ? '' : 's'} and ${prefixes} folder${prefixes === 1 ? '' : 's'}.`,
        evidence: {
          request: `GET ${probe.url}`,
          response: `HTTP 200\nitems: ${items}, prefixes: ${prefixes} (names not kept)`,
          match: items > 0 ? '"items": [ … ]' : '"prefixes": [ … ]',
        },
        key: bucket,
      });
    }
    return findings;
  },
});
