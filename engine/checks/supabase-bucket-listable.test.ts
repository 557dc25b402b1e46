import { describe, expect, it } from 'vitest';
import { fakeSupabaseKey } from '../testing/fake-keys';
import { makeSite, plannedProbes, type ExchangeInit } from '../testing/site';
import { supabaseBucketListable } from './supabase-bucket-listable';

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
  it('plans GET-only probes: the bucket list and each known bucket', () => {
    const probes = plannedProbes(supabaseBucketListable, siteWith());
    expect(probes.every((p) => p.method === 'GET')).toBe(true);
    expect(probes.map((p) => p.url).slice(0, 3)).toEqual([`${HOST}/storage/v1/bucket`, `${HOST}/storage/v1/bucket/invoices`, `${HOST}/storage/v1/bucket/avatars`]);
    expect(probes.every((p) => !p.url.includes('/object/list'))).toBe(true);
  });

  it.each([
    ['no answers', {}],
    ['empty bucket list and Bucket not found', { [`supabase-bucket-listable:list:${REF}`]: json(`${HOST}/storage/v1/bucket`, []), [`supabase-bucket-listable:bucket:${REF}:invoices`]: json(HOST, { statusCode: '404', error: 'Bucket not found' }, 400) }],
    ['probe error', { [`supabase-bucket-listable:list:${REF}`]: { url: HOST, error: 'ETIMEDOUT' } }],
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
});
