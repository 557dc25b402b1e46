import { describe, expect, it } from 'vitest';
import { fakeSupabaseKey } from '../testing/fake-keys';
import { makeSite, plannedProbes, type ExchangeInit } from '../testing/site';
import { rateListing, supabaseBucketListable } from './supabase-bucket-listable';

const REF = 'abcdefghijklmnopqrst';
const HOST = `https://${REF}.supabase.co`;
const anon = fakeSupabaseKey(REF, 'anon');
const siteWith = (probes: Record<string, ExchangeInit> = {}) =>
  makeSite({
    root: { url: 'https://app.test/', body: `<script>const c=Qt("${HOST}","${anon}");c.storage.from("invoices").upload(p,f)</script>` },
    probes,
  });
const json = (url: string, value: unknown, status = 200): ExchangeInit => ({ url, status, body: JSON.stringify(value), contentType: 'application/json' });
const bucket = (id: string, isPublic: boolean) => ({ id, name: id, public: isPublic, owner: '', created_at: '', updated_at: '' });

describe('supabase-bucket-listable', () => {
  it('plans read-only probes: the bucket list, each known bucket, and one page of its object names', () => {
    const probes = plannedProbes(supabaseBucketListable, siteWith());
    expect(probes.every((p) => p.method === 'GET' || (p.method === 'POST' && p.readOnly === true && p.url.includes('/storage/v1/object/list/')))).toBe(true);
    expect(probes.map((p) => `${p.method} ${p.url}`).slice(0, 5)).toEqual([
      `GET ${HOST}/storage/v1/bucket`,
      `GET ${HOST}/storage/v1/bucket/invoices`,
      `POST ${HOST}/storage/v1/object/list/invoices`,
      `GET ${HOST}/storage/v1/bucket/avatars`,
      `POST ${HOST}/storage/v1/object/list/avatars`,
    ]);
    expect(JSON.parse(probes[2]!.body!)).toEqual({ prefix: '', limit: 5, offset: 0, sortBy: { column: 'name', order: 'asc' } });
    expect(probes[2]!.headers).toMatchObject({ apikey: anon, 'Content-Type': 'application/json' });
    // The site's bucket first, then the common names.
    expect(probes.filter((p) => p.method === 'POST').map((p) => p.url.split('/').pop())).toEqual([
      'invoices',
      'avatars',
      'uploads',
      'public',
      'images',
      'documents',
      'files',
      'attachments',
    ]);
  });

  it.each([
    ['no answers', {}],
    [
      'empty bucket list and Bucket not found',
      {
        [`supabase-bucket-listable:list:${REF}`]: json(`${HOST}/storage/v1/bucket`, []),
        [`supabase-bucket-listable:bucket:${REF}:invoices`]: json(HOST, { statusCode: '404', error: 'Bucket not found' }, 400),
      },
    ],
    ['probe error', { [`supabase-bucket-listable:list:${REF}`]: { url: HOST, error: 'ETIMEDOUT' } }],
    ['an empty list (no SELECT policy on storage.objects)', { [`supabase-bucket-listable:objects:${REF}:invoices`]: json(HOST, []) }],
    ['a list refused', { [`supabase-bucket-listable:objects:${REF}:invoices`]: json(HOST, { statusCode: '403', error: 'Unauthorized' }, 400) }],
  ])('no finding: %s', (_name, probes) => {
    expect(supabaseBucketListable.run(siteWith(probes as Record<string, ExchangeInit>))).toEqual([]);
  });

  it('rates public buckets by name and private-but-visible ones low', () => {
    const findings = supabaseBucketListable.run(
      siteWith({
        [`supabase-bucket-listable:list:${REF}`]: json(`${HOST}/storage/v1/bucket`, [bucket('avatars', true), bucket('internal', false)]),
        [`supabase-bucket-listable:bucket:${REF}:invoices`]: json(`${HOST}/storage/v1/bucket/invoices`, bucket('invoices', true)),
      }),
    );
    expect(findings.map((f) => [f.title, f.severity])).toEqual([
      ['Public Supabase storage bucket "avatars"', 'medium'],
      ['Supabase storage bucket "internal" visible to anonymous users', 'low'],
      ['Public Supabase storage bucket "invoices"', 'high'],
    ]);
    expect(JSON.stringify(findings)).not.toContain(anon);
  });

  it('reports listable files, names only, rated by what is listed', () => {
    const objects = (...names: string[]) => names.map((name) => ({ name, id: name.includes('.') ? `id-${name}` : null, metadata: name.includes('.') ? { size: 10 } : null }));
    const findings = supabaseBucketListable.run(
      siteWith({
        [`supabase-bucket-listable:objects:${REF}:invoices`]: json(HOST, objects('2024-001.pdf', '2024-002.pdf')),
        [`supabase-bucket-listable:objects:${REF}:avatars`]: json(HOST, objects('0b9c4c1e-4e8d-4a53-9a0b-6c1f0a3d2e11', 'd2f1c0aa-0000-4000-8000-000000000001')),
        [`supabase-bucket-listable:bucket:${REF}:avatars`]: json(HOST, bucket('avatars', true)),
        [`supabase-bucket-listable:objects:${REF}:public`]: json(HOST, objects('logo.png', 'hero.webp')),
      }),
    );
    expect(findings.map((f) => [f.title, f.severity])).toEqual([
      ['Files of Supabase storage bucket "invoices" listable by anyone', 'high'],
      ['Files of Supabase storage bucket "avatars" listable by anyone', 'medium'],
      ['Files of Supabase storage bucket "public" listable by anyone', 'low'],
    ]);
    expect(findings[0]!.evidence.response).toContain('2 entries (names only): 2024-001.pdf, 2024-002.pdf');
    expect(findings[0]!.evidence.request).toContain('POST https://abcdefghijklmnopqrst.supabase.co/storage/v1/object/list/invoices');
    expect(findings[1]!.detail).toContain('The bucket is public');
    expect(JSON.stringify(findings)).not.toContain(anon);
  });

  it.each([
    ['uploads', ['a.png'], 'high'],
    ['images', ['me.jpg', 'passport-scan.jpg'], 'high'],
    ['images', ['cat.jpg'], 'low'],
    ['user-content', ['cat.jpg'], 'medium'],
    ['public', ['uid-folder'], 'low'],
  ] as const)('rates bucket %s listing %j as %s', (bucketName, names, severity) => {
    expect(
      rateListing(
        bucketName,
        names.map((name) => ({ name, folder: false })),
      ),
    ).toBe(severity);
  });
});
