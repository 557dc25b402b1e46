import { describeLocations, findSecrets } from '../secrets/scan';
import { defineCheck, type FindingDraft } from '../types';

export const publicKeyInClient = defineCheck({
  id: 'public-key-in-client',
  family: 'secrets',
  title: 'Public key visible in client code',
  severity: 'info',
  confidence: 'high',
  cwe: null,
  owasp: 'A02',
  description:
    'Lists keys that are designed to be public (Supabase anon or publishable keys, Stripe publishable keys, Firebase web config, Google Maps browser keys, Sentry DSNs, analytics ingestion keys such as PostHog phc_, Segment, Mixpanel and Amplitude, Mapbox public tokens) so you know what a visitor can use, and what must protect your data instead. They are judged by their role in the page (the config object or SDK call around them), not by how random they look.',
  remediation:
    'Nothing to hide, but check what guards the data each key reaches: row level security on every Supabase table, Firebase Security Rules and App Check, API key restrictions (HTTP referrers, allowed APIs) in Google Cloud, URL restrictions for Mapbox, allowed domains for Sentry.',
  references: ['https://supabase.com/docs/guides/api/api-keys', 'https://firebase.google.com/docs/projects/api-keys', 'https://docs.stripe.com/keys'],
  run(site) {
    const findings: FindingDraft[] = [];
    for (const key of findSecrets(site)) {
      if (!key.public) continue;
      const first = key.locations[0]!;
      findings.push({
        url: first.url,
        title: `${key.label} visible in client code`,
        // Public by design: at most low (a Maps key that still needs its referrer restriction), never medium.
        severity: key.severity === 'low' ? 'low' : 'info',
        confidence: key.confidence,
        detail: `${key.label} (${key.masked}). ${key.note ?? 'Meant to be public.'}`,
        evidence: { request: `GET ${first.url}`, response: describeLocations(key), match: key.snippet },
        key: `${key.ruleId}:${key.id}`,
      });
    }
    return findings;
  },
});
