import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeSupabaseKey } from '../testing/fake-keys';
import { makeSite, type ExchangeInit } from '../testing/site';
import type { Site, SiteAccount } from '../types';
import { supabaseCrossUserRead } from './supabase-cross-user-read';

const REF = 'abcdefghijklmnopqrst';
const HOST = `https://${REF}.supabase.co`;
const anon = fakeSupabaseKey(REF, 'anon');
const fixture = readFileSync(join(__dirname, '__fixtures__', 'vite-supabase-bundle.js'), 'utf8');
const A = '0f8fad5b-d9cb-469f-a165-70867728950e';
const B = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const TWO: SiteAccount[] = [
  { login: 'alice@example.test', signedIn: true, userId: A },
  { login: 'bob@example.test', signedIn: true, userId: B },
];
const ID = 'supabase-cross-user-read';

const siteWith = (probes: Record<string, ExchangeInit> = {}, accounts: SiteAccount[] = TWO): Site => ({
  ...makeSite({
    root: { url: 'https://app.test/', body: '<script type="module" src="/assets/index.js"></script>' },
    assets: [{ url: 'https://app.test/assets/index.js', body: fixture.replace('__SUPABASE_URL__', HOST).replace('__ANON_KEY__', anon) }],
    probes,
  }),
  accounts,
});
const rowsAs = (table: string, as: number, rows: unknown[]): Record<string, ExchangeInit> => ({
  [`${ID}:rows:${REF}:${table}:${as}`]: {
    url: `${HOST}/rest/v1/${table}?select=*&limit=5`,
    body: JSON.stringify(rows),
    contentType: 'application/json',
    requestHeaders: { authorization: 'Bearer eyJhbG…x1y2' },
  },
});
const PROFILES = [
  { id: A, full_name: 'Alice Martin', email: 'alice@example.test', phone: '+33 6 12 34 56 78' },
  { id: B, full_name: 'Bob Chen', email: 'bob.chen@mail.example', phone: '+1 415 555 0199' },
];

describe('supabase-cross-user-read', () => {
  it('plans each table and bucket once per account, read-only and bounded, nothing without accounts', () => {
    const probes = supabaseCrossUserRead.probes!(siteWith());
    expect(probes.length).toBeGreaterThan(0);
    expect(new Set(probes.map((p) => p.key)).size).toBe(probes.length);
    expect(probes.every((p) => p.as === 0 || p.as === 1)).toBe(true);
    expect(probes.every((p) => p.method === 'GET' || (p.method === 'POST' && p.readOnly === true))).toBe(true);
    expect(probes.find((p) => p.key === `${ID}:rows:${REF}:profiles:1`)).toMatchObject({ method: 'GET', url: `${HOST}/rest/v1/profiles?select=*&limit=5`, as: 1 });
    expect(probes.find((p) => p.key === `${ID}:list:${REF}:avatars:0`)).toMatchObject({ method: 'POST', readOnly: true, url: `${HOST}/storage/v1/object/list/avatars` });
    expect(supabaseCrossUserRead.probes!(siteWith({}, []))).toEqual([]);
  });

  const valid: Record<string, Site> = {
    'each account reads only her own profile': siteWith({ ...rowsAs('profiles', 0, [PROFILES[0]]), ...rowsAs('profiles', 1, [PROFILES[1]]) }),
    'nothing readable signed in': siteWith({ ...rowsAs('orders', 0, []), ...rowsAs('orders', 1, []) }),
    'a table anonymous visitors already read (reported by supabase-table-readable)': siteWith({
      ...rowsAs('profiles', 0, PROFILES),
      [`supabase-table-readable:row:${REF}:profiles`]: { url: `${HOST}/rest/v1/profiles?select=*&limit=1`, body: JSON.stringify([PROFILES[0]]), contentType: 'application/json' },
    }),
  };
  it.each(Object.entries(valid))('reports nothing when %s', (_name, site) => {
    expect(supabaseCrossUserRead.run(site)).toEqual([]);
  });

  it('does not apply when no account signed in', () => {
    expect(supabaseCrossUserRead.appliesTo!(siteWith({}, [{ login: 'alice@example.test', signedIn: false }]))).toBe(false);
    expect(supabaseCrossUserRead.appliesTo!(siteWith())).toBe(true);
  });

  it("reports another user's profile, naming the account and request, the other user's values masked", () => {
    const [finding, ...rest] = supabaseCrossUserRead.run(siteWith({ ...rowsAs('profiles', 0, PROFILES), ...rowsAs('profiles', 1, [PROFILES[1]]) }));
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({ title: "Any signed-in user can read other users' profiles", severity: 'high', url: `${HOST}/rest/v1/profiles` });
    expect(finding!.detail).toContain('alice@example.test');
    expect(finding!.detail).toContain('bob@example.test');
    expect(finding!.evidence.request).toContain('Sent as alice@example.test');
    expect(finding!.evidence.request).toContain('Authorization: Bearer eyJhbG…x1y2');
    expect(finding!.evidence.response).toContain('auth.uid() = id');
    const text = JSON.stringify(finding);
    expect(text).not.toContain('bob.chen@mail.example');
    expect(text).not.toContain('+1 415 555 0199');
  });

  it("calls a function taking a user id with the other account's id, and reports what it returns", () => {
    const hint = { code: 'PGRST202', details: null, hint: 'Perhaps you meant to call the function public.get_dashboard_stats(p_user_id)', message: 'Could not find the function' };
    const bare = {
      [`supabase-rpc-exposed:call:${REF}:get_dashboard_stats`]: {
        url: `${HOST}/rest/v1/rpc/get_dashboard_stats`,
        status: 404,
        body: JSON.stringify(hint),
        contentType: 'application/json',
      },
    };
    const calls = supabaseCrossUserRead.followUpProbes!(siteWith(bare));
    expect(calls.map((c) => [c.url, c.as])).toEqual([
      [`${HOST}/rest/v1/rpc/get_dashboard_stats?p_user_id=${B}`, 0],
      [`${HOST}/rest/v1/rpc/get_dashboard_stats?p_user_id=${A}`, 1],
    ]);
    expect(supabaseCrossUserRead.followUpProbes!(siteWith(bare, TWO.slice(0, 1)))).toEqual([]);
    const answer = (as: number, rows: unknown[]) => ({ [calls[as]!.key]: { url: calls[as]!.url, body: JSON.stringify(rows), contentType: 'application/json' } });
    expect(supabaseCrossUserRead.run(siteWith({ ...bare, ...answer(0, []), ...answer(1, []) }))).toEqual([]);
    const [finding] = supabaseCrossUserRead.run(siteWith({ ...bare, ...answer(0, [{ revenue: 1200, user_id: B }]), ...answer(1, []) }));
    expect(finding).toMatchObject({ url: `${HOST}/rest/v1/rpc/get_dashboard_stats`, severity: 'medium' });
  });
});
