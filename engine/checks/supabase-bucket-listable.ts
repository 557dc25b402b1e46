import { SEVERITY_RANK } from '../../common/scan';
import { analyzeSupabase, describeRequest, discoveryProbes, unanswered, projectLabel, supabaseHeaders, type SupabaseProject } from '../analysis/supabase';
import { defineCheck, type Exchange, type FindingDraft, type ProbeRequest, type Severity, type Site, type SiteBeforeProbes } from '../types';

const ID = 'supabase-bucket-listable';
/** The site's own bucket names first, then the common ones: at most 3 requests each, 30 per project. */
const MAX_BUCKETS = 10;
/** One page of a few names is proof enough; the scan never pages through a bucket. */
const LIST_LIMIT = 5;
/** Bucket names that suggest files users would not want public. */
const PRIVATE_SOUNDING = /doc|file|attach|upload|invoice|receipt|contract|private|backup|export|kyc|passport|id[-_]?card|medical|report|statement/i;
/** Object names that look like personal or business documents rather than site media. */
const DOCUMENT =
  /\.(?:pdf|docx?|xlsx?|csv|odt|ods|rtf|txt|json|sql|zip|tar|gz|7z|bak|eml|msg)$|passport|invoice|receipt|contract|statement|payslip|tax|medical|license|licence|id[-_]?card|ssn|bank/i;
const MEDIA_BUCKET = /^(?:public|images?|img|assets|static|media|logos?|icons?|site)$/i;

// Why these probes: GET /storage/v1/bucket (the buckets the key may enumerate: storage.buckets readable by anon) and
// GET /storage/v1/bucket/<id> (one bucket's metadata, including whether it is public, i.e. every file downloadable by
// URL without a key) are plain reads. Listing a bucket's objects is POST /storage/v1/object/list/<bucket> in the
// Storage API: a POST that only reads (a SELECT on storage.objects under the caller's policies), sent as a read-only
// probe with one page of LIST_LIMIT names and no prefix. Probes are planned once, so buckets known only from the
// bucket list answer get their metadata reported but are not listed. GET /storage/v1/object/public/<bucket>/ was
// rejected: its "Bucket not found" and "Object not found" errors race each other in the server.
interface BucketPlan {
  project: SupabaseProject;
  list: ProbeRequest;
  buckets: Array<{ name: string; meta: ProbeRequest; objects: ProbeRequest }>;
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
          meta: {
            key: `${ID}:bucket:${label}:${name}`,
            method: 'GET' as const,
            url: `${project.url}/storage/v1/bucket/${encodeURIComponent(name)}`,
            headers: supabaseHeaders(key),
          },
          objects: {
            key: `${ID}:objects:${label}:${name}`,
            method: 'POST' as const,
            readOnly: true,
            url: `${project.url}/storage/v1/object/list/${encodeURIComponent(name)}`,
            headers: supabaseHeaders(key, { 'Content-Type': 'application/json' }),
            body: JSON.stringify({ prefix: '', limit: LIST_LIMIT, offset: 0, sortBy: { column: 'name', order: 'asc' } }),
          },
        })),
      };
    });
}

interface BucketMeta {
  id: string;
  public: boolean;
}

/** One entry of a list answer: a file (with an id) or a folder (id null). */
export interface ListedObject {
  name: string;
  folder: boolean;
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

/** The names in a Storage list answer (an array of { name, id, metadata }); [] for anything else. */
export function listedObjects(exchange: Exchange | undefined): ListedObject[] {
  const value = json(exchange);
  if (!Array.isArray(value)) return [];
  return value.flatMap((item: unknown) => {
    const entry = item as { name?: unknown; id?: unknown } | null;
    return entry && typeof entry.name === 'string' && entry.name && entry.name !== '.emptyFolderPlaceholder' ? [{ name: entry.name, folder: entry.id === null }] : [];
  });
}

/** How bad a listable bucket is, from what the list showed: documents high, site media low, anything else medium. */
export function rateListing(bucket: string, objects: readonly ListedObject[]): Severity {
  const files = objects.filter((o) => !o.folder);
  if (files.some((o) => DOCUMENT.test(o.name)) || (PRIVATE_SOUNDING.test(bucket) && objects.length > 0)) return 'high';
  if (MEDIA_BUCKET.test(bucket) && objects.every((o) => !o.folder)) return 'low';
  return 'medium';
}

function metaSeverity(meta: BucketMeta): Severity {
  return meta.public ? (PRIVATE_SOUNDING.test(meta.id) ? 'high' : 'medium') : 'low';
}

interface Seen {
  meta?: BucketMeta;
  metaProbe?: ProbeRequest;
  inBucketList: boolean;
  objects: ListedObject[];
  listProbe?: ProbeRequest;
}

function gather(site: Site, p: BucketPlan): Map<string, Seen> {
  const seen = new Map<string, Seen>();
  const listAnswer = json(site.probes.get(p.list.key));
  if (Array.isArray(listAnswer)) {
    for (const item of listAnswer) {
      const meta = parseBucket(item);
      if (meta) seen.set(meta.id, { meta, metaProbe: p.list, inBucketList: true, objects: [] });
    }
  }
  for (const bucket of p.buckets) {
    const entry = seen.get(bucket.name) ?? { inBucketList: false, objects: [] };
    const meta = parseBucket(json(site.probes.get(bucket.meta.key)));
    if (meta && !entry.meta) Object.assign(entry, { meta, metaProbe: bucket.meta });
    const objects = listedObjects(site.probes.get(bucket.objects.key));
    if (objects.length > 0) Object.assign(entry, { objects, listProbe: bucket.objects });
    if (entry.meta || entry.objects.length > 0) seen.set(bucket.name, entry);
  }
  return seen;
}

function listingFinding(p: BucketPlan, name: string, entry: Seen): FindingDraft {
  const probe = entry.listProbe!;
  const listed = rateListing(name, entry.objects);
  const severity = entry.meta && SEVERITY_RANK[metaSeverity(entry.meta)] > SEVERITY_RANK[listed] ? metaSeverity(entry.meta) : listed;
  const names = entry.objects.map((o) => (o.folder ? `${o.name}/` : o.name));
  return {
    url: `${p.project.url}/storage/v1/object/list/${name}`,
    title: `Files of Supabase storage bucket "${name}" listable by anyone`,
    severity,
    detail:
      `Anyone with the site's public key can list the files of bucket "${name}" (the first ${LIST_LIMIT} names were asked for: ${names.join(', ')}).` +
      (entry.meta?.public ? ' The bucket is public, so each listed file downloads without a key.' : ' With the names, files are one signed URL or policy mistake away.'),
    evidence: {
      request: `${describeRequest(probe.method, probe.url, probe.headers ?? {})}\n\n${probe.body ?? ''}`,
      response: `HTTP 200\n${entry.objects.length} entr${entry.objects.length === 1 ? 'y' : 'ies'} (names only): ${names.join(', ')}`,
      match: names.slice(0, 3).join(', '),
    },
    key: `${projectLabel(p.project)}/${name}`,
  };
}

function metaFinding(p: BucketPlan, entry: Seen): FindingDraft {
  const meta = entry.meta!;
  const probe = entry.metaProbe!;
  const how = entry.inBucketList ? 'appears in the bucket list anonymous visitors can read' : 'has metadata anonymous visitors can read';
  return {
    url: `${p.project.url}/storage/v1/bucket/${meta.id}`,
    title: meta.public ? `Public Supabase storage bucket "${meta.id}"` : `Supabase storage bucket "${meta.id}" visible to anonymous users`,
    severity: metaSeverity(meta),
    detail: meta.public
      ? `Bucket "${meta.id}" ${how} and is public: every file in it can be downloaded without a key by anyone who has its URL.`
      : `Bucket "${meta.id}" ${how}; it is private, so files need a policy or signed URL, but its name and settings are exposed.`,
    evidence: {
      request: describeRequest(probe.method, probe.url, probe.headers ?? {}),
      response: `HTTP 200\nbucket ${meta.id}: public=${meta.public}`,
      match: `"id":"${meta.id}" "public":${meta.public}`,
    },
    key: `${projectLabel(p.project)}/${meta.id}`,
  };
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
    'Asks Supabase Storage, with the public key and read-only calls, which buckets an anonymous visitor can enumerate, whether they are public, and whether their files can be listed (Storage\'s list call, one page of a few names). Bucket names come from the bundle (.storage.from("…")), captured traffic and common names.',
  remediation:
    "Make buckets that hold user files private and serve them through signed URLs; restrict SELECT policies on storage.objects to the owner (e.g. bucket_id = 'documents' AND (storage.foldername(name))[1] = auth.uid()::text) and on storage.buckets. A public bucket does not need a broad SELECT policy for URL downloads, and such a policy lets anyone list every file (Security Advisor lint 0025).",
  references: [
    'https://supabase.com/docs/guides/storage/security/access-control',
    'https://supabase.com/docs/guides/storage/buckets/fundamentals',
    'https://supabase.com/docs/reference/javascript/storage-from-list',
    'https://supabase.com/docs/guides/database/database-linter?lint=0025_public_bucket_allows_listing',
  ],
  probes(site) {
    return [...discoveryProbes(site), ...plan(site).flatMap((p) => [p.list, ...p.buckets.flatMap((b) => [b.meta, b.objects])])];
  },
  // Projects confirmed by their GoTrue answer are probed next.
  followUpProbes(site) {
    return unanswered(
      site,
      plan(site).flatMap((p) => [p.list, ...p.buckets.flatMap((b) => [b.meta, b.objects])]),
    );
  },
  appliesTo(site) {
    return analyzeSupabase(site).projects.some((p) => p.keys.length > 0);
  },
  run(site) {
    const findings: FindingDraft[] = [];
    for (const p of plan(site)) {
      for (const [name, entry] of gather(site, p)) findings.push(entry.objects.length > 0 ? listingFinding(p, name, entry) : metaFinding(p, entry));
    }
    return findings;
  },
});
