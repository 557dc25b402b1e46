import { analyzeSupabase, describeRequest, projectLabel, supabaseHeaders, type SupabaseProject } from '../analysis/supabase';
import { defineCheck, type Exchange, type FindingDraft, type ProbeRequest, type Severity, type SiteBeforeProbes } from '../types';

const ID = 'supabase-bucket-listable';
const MAX_BUCKETS = 6;
/** Bucket names that suggest files users would not want public. */
const PRIVATE_SOUNDING = /doc|file|attach|upload|invoice|receipt|contract|private|backup|export|kyc|passport|id[-_]?card|medical|report|statement/i;

// Why these probes: listing the objects of a bucket is POST /storage/v1/object/list/<bucket> (and list-v2) in the
// Storage API, a write-style verb we never send. Read-only GETs that still tell what anonymous clients can see are
// GET /storage/v1/bucket (the buckets the key may enumerate: storage.buckets readable by anon) and
// GET /storage/v1/bucket/<id> (one bucket's metadata, including whether it is public, i.e. every file downloadable
// by URL without a key). GET /storage/v1/object/public/<bucket>/ was rejected: its "Bucket not found" and "Object not
// found" errors race each other in the server, so the answer does not reliably tell public from private.
interface BucketPlan {
  project: SupabaseProject;
  list: ProbeRequest;
  buckets: Array<{ name: string; probe: ProbeRequest }>;
}

function plan(site: SiteBeforeProbes): BucketPlan[] {
  const info = analyzeSupabase(site);
  return info.projects
    .filter((p) => p.keys.length > 0)
    .map((project) => {
      const key = project.keys[0]!;
      const label = projectLabel(project);
      return {
        project,
        list: { key: `${ID}:list:${label}`, method: 'GET' as const, url: `${project.url}/storage/v1/bucket`, headers: supabaseHeaders(key) },
        buckets: info.buckets.slice(0, MAX_BUCKETS).map(({ name }) => ({
          name,
          probe: { key: `${ID}:bucket:${label}:${name}`, method: 'GET' as const, url: `${project.url}/storage/v1/bucket/${encodeURIComponent(name)}`, headers: supabaseHeaders(key) },
        })),
      };
    });
}

interface BucketMeta {
  id: string;
  public: boolean;
}

function parseBucket(value: unknown): BucketMeta | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const { id, name } = value as { id?: unknown; name?: unknown; public?: unknown };
  const bucketId = typeof id === 'string' ? id : typeof name === 'string' ? name : undefined;
  return bucketId ? { id: bucketId, public: (value as { public?: unknown }).public === true } : undefined;
}

function json(exchange: Exchange | undefined): unknown {
  if (!exchange || exchange.error || exchange.status !== 200) return undefined;
  try {
    return JSON.parse(exchange.body) as unknown;
  } catch {
    return undefined;
  }
}

export const supabaseBucketListable = defineCheck({
  id: ID,
  family: 'supabase',
  title: 'Supabase storage bucket exposed to anonymous users',
  severity: 'medium',
  confidence: 'high',
  cwe: 284,
  owasp: 'A01',
  description:
    'Asks Supabase Storage, with the public key and GET requests only, which buckets an anonymous visitor can enumerate and whether they are public. A public bucket serves every file to anyone who has (or guesses) its URL, and policies broad enough to show bucket metadata to anon often let clients list every file too.',
  remediation:
    'Make buckets that hold user files private and serve them through signed URLs; restrict SELECT policies on storage.buckets and storage.objects to the owner (e.g. (storage.foldername(name))[1] = auth.uid()::text). A public bucket does not need a broad SELECT policy for URL downloads (Security Advisor lint 0025).',
  references: [
    'https://supabase.com/docs/guides/storage/security/access-control',
    'https://supabase.com/docs/guides/storage/buckets/fundamentals',
    'https://supabase.com/docs/guides/database/database-linter?lint=0025_public_bucket_allows_listing',
  ],
  probes(site) {
    return plan(site).flatMap((p) => [p.list, ...p.buckets.map((b) => b.probe)]);
  },
  appliesTo(site) {
    return analyzeSupabase(site).projects.some((p) => p.keys.length > 0);
  },
  run(site) {
    const findings: FindingDraft[] = [];
    for (const p of plan(site)) {
      const seen = new Map<string, { meta: BucketMeta; probe: ProbeRequest; listed: boolean }>();
      const listAnswer = json(site.probes.get(p.list.key));
      if (Array.isArray(listAnswer)) {
        for (const item of listAnswer) {
          const meta = parseBucket(item);
          if (meta) seen.set(meta.id, { meta, probe: p.list, listed: true });
        }
      }
      for (const bucket of p.buckets) {
        const meta = parseBucket(json(site.probes.get(bucket.probe.key)));
        if (meta && !seen.has(meta.id)) seen.set(meta.id, { meta, probe: bucket.probe, listed: false });
      }
      for (const { meta, probe, listed } of seen.values()) {
        const severity: Severity = meta.public ? (PRIVATE_SOUNDING.test(meta.id) ? 'high' : 'medium') : 'low';
        const how = listed ? 'appears in the bucket list anonymous visitors can read' : 'has metadata anonymous visitors can read';
        findings.push({
          url: `${p.project.url}/storage/v1/bucket/${meta.id}`,
          title: meta.public ? `Public Supabase storage bucket "${meta.id}"` : `Supabase storage bucket "${meta.id}" visible to anonymous users`,
          severity,
          detail: meta.public
            ? `Bucket "${meta.id}" ${how} and is public: every file in it can be downloaded without a key by anyone who has its URL.`
            : `Bucket "${meta.id}" ${how}; it is private, so files need a policy or signed URL, but its name and settings are exposed.`,
          evidence: {
            request: describeRequest(probe.method, probe.url, probe.headers ?? {}),
            response: `HTTP 200\nbucket ${meta.id}: public=${meta.public}`,
            match: `"id":"${meta.id}" "public":${meta.public}`,
          },
          key: `${projectLabel(p.project)}/${meta.id}`,
        });
      }
    }
    return findings;
  },
});
