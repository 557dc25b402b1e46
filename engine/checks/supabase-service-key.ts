import { describeLocations, findSecrets } from '../secrets/scan';
import { defineCheck, type FindingDraft } from '../types';

export const supabaseServiceKey = defineCheck({
  id: 'supabase-service-key',
  family: 'supabase',
  title: 'Supabase service key in client code',
  severity: 'critical',
  confidence: 'high',
  cwe: 798,
  owasp: 'A07',
  description:
    'Looks for a Supabase service_role JWT or sb_secret_ key in what the site sends to browsers. These keys bypass row level security: whoever reads them can read, change and delete every row and file of the project. No request is needed to confirm it.',
  remediation:
    'Rotate the key now in the Supabase dashboard (Project Settings → API Keys; for a legacy service_role JWT, rotate the JWT secret or move to the new API keys and disable the legacy ones). Use only the anon or publishable key in the browser and keep the service key in server-side code such as Edge Functions.',
  references: [
    'https://supabase.com/docs/guides/api/api-keys',
    'https://supabase.com/docs/guides/database/postgres/row-level-security',
    'https://nvd.nist.gov/vuln/detail/CVE-2025-48757',
  ],
  run(site) {
    const findings: FindingDraft[] = [];
    for (const key of findSecrets(site)) {
      if (key.dedicated !== 'supabase-service-key') continue;
      const first = key.locations[0]!;
      findings.push({
        url: first.url,
        title: `${key.label} in client code`,
        severity: 'critical',
        detail: `${key.label} (${key.masked}) is readable by every visitor and bypasses row level security on every table and bucket.`,
        evidence: { request: `GET ${first.url}`, response: describeLocations(key), match: key.snippet },
        key: key.id,
      });
    }
    return findings;
  },
});
