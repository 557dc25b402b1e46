import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeSupabaseKey } from '../testing/fake-keys';
import { makeSite } from '../testing/site';
import { collectTexts } from '../secrets/scan';
import { TABLE_WORDLIST, analyzeSupabase, describeRequest, extractSupabase } from './supabase';

const REF = 'abcdefghijklmnopqrst';
const fixture = readFileSync(join(__dirname, '..', 'checks', '__fixtures__', 'vite-supabase-bundle.js'), 'utf8');

function bundleSite(url: string, key: string) {
  return makeSite({
    root: { url: 'https://app.test/', body: '<script type="module" src="/assets/index.js"></script>' },
    assets: [{ url: 'https://app.test/assets/index.js', body: fixture.replace('__SUPABASE_URL__', url).replace('__ANON_KEY__', key) }],
  });
}

describe('extractSupabase', () => {
  it('finds the hosted project, its anon key and the names in a minified Vite bundle', () => {
    const anon = fakeSupabaseKey(REF, 'anon');
    const info = analyzeSupabase(bundleSite(`https://${REF}.supabase.co`, anon));
    expect(info.projects).toEqual([{ url: `https://${REF}.supabase.co`, ref: REF, keys: [anon] }]);
    expect(info.tables.filter((t) => t.origin === 'bundle').map((t) => t.name)).toEqual(['profiles', 'orders', 'waitlist']);
    expect(info.tables.filter((t) => t.origin === 'wordlist')).toHaveLength(TABLE_WORDLIST.length - 2); // "profiles" and "orders" are known already
    expect(info.buckets[0]).toEqual({ name: 'avatars', origin: 'bundle' });
    expect(info.rpcs).toEqual([{ name: 'get_dashboard_stats', origin: 'bundle' }]);
    expect(info.tables.map((t) => t.name)).not.toContain('abc');
    expect(info.tables.map((t) => t.name)).not.toContain('payload');
  });

  it('pairs a custom domain with the key next to it, without also probing the hosted URL', () => {
    const anon = fakeSupabaseKey(REF, 'anon');
    const info = analyzeSupabase(bundleSite('https://db.app.test', anon));
    expect(info.projects).toEqual([{ url: 'https://db.app.test', ref: undefined, keys: [anon] }]);
  });

  it('derives the project from an anon key alone, and pairs sb_publishable_ keys', () => {
    const anon = fakeSupabaseKey(REF, 'anon');
    expect(extractSupabase([{ kind: 'script', url: 'u', where: 'script', text: `const k="${anon}"` }]).projects[0]!.url).toBe(`https://${REF}.supabase.co`);
    const publishable = 'sb_publishable_' + 'Q'.repeat(30);
    const info = extractSupabase([{ kind: 'script', url: 'u', where: 'script', text: `x("https://${REF}.supabase.co","${publishable}")` }]);
    expect(info.projects[0]!.keys).toEqual([publishable]);
  });

  it('learns projects, keys, tables, rpcs and buckets from captured requests', () => {
    const anon = fakeSupabaseKey(REF, 'anon');
    const site = makeSite({
      root: { url: 'https://app.test/', body: '<p>hi</p>' },
      rendering: {
        status: 'done',
        requests: [
          { url: `https://${REF}.supabase.co/rest/v1/leads?select=*`, method: 'GET', resourceType: 'fetch', requestHeaders: { apikey: anon } },
          { url: `https://${REF}.supabase.co/rest/v1/rpc/is_admin`, method: 'POST', resourceType: 'fetch', requestHeaders: { apikey: anon } },
          { url: `https://${REF}.supabase.co/storage/v1/object/public/receipts/a.png`, method: 'GET', resourceType: 'image' },
        ],
      },
    });
    const info = extractSupabase(collectTexts(site));
    expect(info.projects).toEqual([{ url: `https://${REF}.supabase.co`, ref: REF, keys: [anon] }]);
    expect(info.tables[0]).toEqual({ name: 'leads', origin: 'traffic' });
    expect(info.rpcs).toEqual([{ name: 'is_admin', origin: 'traffic' }]);
    expect(info.buckets[0]).toEqual({ name: 'receipts', origin: 'traffic' });
  });

  it('ignores service_role and user session keys as probe keys, and sites without Supabase', () => {
    const service = fakeSupabaseKey(REF, 'service_role');
    expect(extractSupabase([{ kind: 'script', url: 'u', where: 'script', text: `x("https://${REF}.supabase.co","${service}")` }]).projects[0]!.keys).toEqual([]);
    const none = extractSupabase([{ kind: 'script', url: 'u', where: 'script', text: 'Array.from("x");a.from("users").select()' }]);
    expect(none.projects).toEqual([]);
    expect(none.tables.every((t) => t.origin !== 'wordlist')).toBe(true);
  });

  it('masks keys when describing a probe', () => {
    const anon = fakeSupabaseKey(REF, 'anon');
    const text = describeRequest('HEAD', 'https://x/rest/v1/t', { apikey: anon, Authorization: `Bearer ${anon}` });
    expect(text).not.toContain(anon);
    expect(text).toContain('Authorization: Bearer eyJhbG…');
  });
});
