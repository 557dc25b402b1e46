import { describeLocations, findSecrets } from '../secrets/scan';
import { defineCheck, type FindingDraft } from '../types';

export const secretInClient = defineCheck({
  id: 'secret-in-client',
  family: 'secrets',
  title: 'Secret key shipped to the browser',
  severity: 'critical',
  confidence: 'high',
  cwe: 798,
  owasp: 'A07',
  description:
    'Looks for server-side credentials (AI provider keys, payment secret keys, cloud and database credentials, tokens) in HTML, scripts, source maps, browser storage and the requests the page makes. Anything sent to a browser can be read by every visitor.',
  remediation:
    'Revoke and rotate the key at the provider now (removing it from the code does not un-leak it), then move the call that needs it to a server or edge function that keeps the key in an environment variable without a public prefix (not VITE_, NEXT_PUBLIC_ or REACT_APP_), and add rate limits there.',
  references: [
    'https://cwe.mitre.org/data/definitions/798.html',
    'https://cheatsheetseries.owasp.org/cheatsheets/Secrets_Management_Cheat_Sheet.html',
    'https://vite.dev/guide/env-and-mode',
  ],
  run(site) {
    const findings: FindingDraft[] = [];
    for (const secret of findSecrets(site)) {
      if (secret.public || secret.dedicated) continue;
      const first = secret.locations[0]!;
      const places = secret.locations.length === 1 ? 'one place' : `${secret.locations.length} places`;
      findings.push({
        url: first.url,
        title: `${secret.label} in client code`,
        severity: secret.severity,
        confidence: secret.confidence,
        detail: `${secret.label} (${secret.masked}) is readable by every visitor; seen in ${places}. ${secret.note ?? ''}`.trim(),
        evidence: {
          request: `GET ${first.url}`,
          response: describeLocations(secret),
          match: secret.snippet,
        },
        key: `${secret.ruleId}:${secret.id}`,
      });
    }
    return findings;
  },
});
