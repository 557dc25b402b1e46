import { analyzeFirebase } from '../analysis/firebase';
import { sensitiveFields } from '../analysis/sensitive-fields';
import { defineCheck, type FindingDraft, type ProbeRequest, type SiteBeforeProbes } from '../types';

const ID = 'firebase-rtdb-readable';
const MAX_DATABASES = 3;

function plan(site: SiteBeforeProbes): Array<{ root: string; probe: ProbeRequest }> {
  return analyzeFirebase(site)
    .databaseUrls.slice(0, MAX_DATABASES)
    .map((root) => ({
      root,
      // shallow=true returns only the top-level keys (true for objects), not the whole tree.
      probe: { key: `${ID}:${new URL(root).host}`, method: 'GET', url: `${root}/.json?shallow=true` },
    }));
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
    'Reads the root of the Realtime Database named in the site\'s Firebase config with GET /.json?shallow=true and no credentials. Locked databases answer 401 "Permission denied"; open ones list their top-level keys.',
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
  appliesTo(site) {
    return analyzeFirebase(site).databaseUrls.length > 0;
  },
  run(site) {
    const findings: FindingDraft[] = [];
    for (const { root, probe } of plan(site)) {
      const answer = site.probes.get(probe.key);
      if (!answer || answer.error || answer.status !== 200) continue;
      let data: unknown;
      try {
        data = JSON.parse(answer.body);
      } catch {
        continue;
      }
      if (data === null) continue; // readable but empty, or rules that return null: nothing exposed
      const keys = typeof data === 'object' && !Array.isArray(data) ? Object.keys(data) : [];
      const sensitive = sensitiveFields(keys);
      findings.push({
        url: root,
        severity: sensitive.length > 0 ? 'critical' : 'high',
        detail:
          `The Realtime Database at ${root} can be read without signing in` +
          (keys.length > 0 ? `; top-level keys: ${keys.slice(0, 20).join(', ')}${keys.length > 20 ? ', …' : ''}.` : '.') +
          (sensitive.length > 0 ? ` Sensitive names: ${sensitive.slice(0, 10).join(', ')}.` : ''),
        evidence: {
          request: `GET ${probe.url}`,
          response: `HTTP 200\n${keys.length} top-level key${keys.length === 1 ? '' : 's'} (values not kept)`,
          match: keys.length > 0 ? keys.slice(0, 20).join(', ') : 'non-null root',
        },
        key: new URL(root).host,
      });
    }
    return findings;
  },
});
