import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeSupabaseKey } from '../testing/fake-keys';
import { makeSite } from '../testing/site';
import type { Site, SiteBeforeProbes } from '../types';
import { collectTexts } from '../secrets/scan';
import { fakeJwt } from '../testing/fake-keys';
import { MAX_CANDIDATES, TABLE_WORDLIST, analyzeSupabase, describeRequest, discoveryProbes, extractSupabase, supabaseReachability } from './supabase';

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

describe('extractSupabase: every shape a build leaves the client settings in', () => {
  const anon = fakeSupabaseKey(REF, 'anon');
  const CUSTOM = 'https://db.acme.dev';
  const scripts = (...texts: string[]) => texts.map((text, i) => ({ kind: 'script' as const, url: `https://app.test/assets/c${i}.js`, where: 'script', text }));
  const only = (url: string) => [{ url, ref: undefined, keys: [anon] }];

  it.each([
    ['import.meta.env replaced by an object, the key first', `const e={BASE_URL:"/",MODE:"production",VITE_SUPABASE_ANON_KEY:"${anon}",VITE_SUPABASE_URL:"${CUSTOM}"};`],
    ['|| fallbacks after the env object', `const Pt={BASE_URL:"/"}.VITE_SUPABASE_URL||"${CUSTOM}",Qt=void 0||"${anon}",Ve=Ut(Pt,Qt);`],
    ['?? fallback on the key', `const u="${CUSTOM}",k=import.meta.env.VITE_SUPABASE_PUBLISHABLE_KEY??"${anon}";`],
    ['constants Next inlined, separate statements', `const n="${CUSTOM}";let r="${anon}";(0,o.createBrowserClient)(n,r)`],
    ['a config object', `var s={url:"${CUSTOM}",anonKey:"${anon}"};`],
  ])('%s', (_label, text) => {
    expect(extractSupabase(scripts(text)).projects).toEqual(only(CUSTOM));
  });

  it('pairs a named URL in one chunk with the key in another, not the hosted URL the key names', () => {
    const info = extractSupabase(scripts(`export const c={supabaseUrl:"${CUSTOM}"};`, `import{c as a}from"./c0.js";const k="${anon}";Ut(a.supabaseUrl,k);`));
    expect(info.projects).toEqual(only(CUSTOM));
  });

  it('keeps both branches of a ternary on a named setting', () => {
    const info = extractSupabase(scripts(`const SUPABASE_URL=!0?"${CUSTOM}":"https://staging-db.acme.dev",K="${anon}";`));
    expect(info.projects.map((p) => p.url).sort()).toEqual([CUSTOM, 'https://staging-db.acme.dev']);
    expect(info.projects.find((p) => p.url === 'https://staging-db.acme.dev')?.keys).toEqual([anon]);
  });

  it('learns a custom domain from the requests the page made', () => {
    const site = makeSite({
      root: { url: 'https://app.test/', body: '<p>hi</p>' },
      rendering: { status: 'done', requests: [{ url: `${CUSTOM}/rest/v1/bookings?select=*`, method: 'GET', resourceType: 'fetch', requestHeaders: { apikey: anon } }] },
    });
    const info = extractSupabase(collectTexts(site));
    expect(info.projects).toEqual(only(CUSTOM));
    expect(info.tables[0]).toEqual({ name: 'bookings', origin: 'traffic' });
  });

  it('still probes the hosted URL a key names when the bundle names no other', () => {
    expect(extractSupabase(scripts(`const k="${anon}",u="https://cdn.acme.dev/logo.png";`)).projects).toEqual([{ url: `https://${REF}.supabase.co`, ref: REF, keys: [anon] }]);
  });
});

describe('supabaseReachability', () => {
  it('tells a project every probe failed to reach from one that answered, and one never probed', () => {
    const other = 'zyxwvutsrqponmlkjihg';
    const site = makeSite({
      root: { url: 'https://app.test/', body: '<p>hi</p>' },
      assets: [
        {
          url: 'https://app.test/a.js',
          body: `x("https://${REF}.supabase.co","${fakeSupabaseKey(REF, 'anon')}");y("https://db.acme.dev","${fakeSupabaseKey(other, 'anon')}");const SUPABASE_URL="https://old.acme.dev";`,
        },
      ],
      probes: {
        a: { url: `https://${REF}.supabase.co/rest/v1/users?select=*`, status: 0, error: 'getaddrinfo ENOTFOUND' },
        b: { url: `https://${REF}.supabase.co/rest/v1/orders?select=*`, status: 0, error: 'getaddrinfo ENOTFOUND' },
        c: { url: 'https://db.acme.dev/rest/v1/users?select=*', status: 401 },
      },
    });
    const byUrl = Object.fromEntries(supabaseReachability(site).map((r) => [r.url, r]));
    expect(byUrl[`https://${REF}.supabase.co`]).toEqual({ url: `https://${REF}.supabase.co`, ref: REF, reachable: false, reason: 'getaddrinfo ENOTFOUND' });
    expect(byUrl['https://db.acme.dev']).toEqual({ url: 'https://db.acme.dev', reachable: true });
    expect(byUrl['https://old.acme.dev']?.reachable).toBe(false);
    expect(byUrl['https://old.acme.dev']?.reason).toMatch(/no probe/);
  });
});

describe('origins the bundle never names as Supabase', () => {
  const selfHosted = fakeJwt({ iss: 'supabase', role: 'anon', iat: 1_700_000_000, exp: 2_000_000_000 }, 5);
  const GOTRUE = JSON.stringify({ external: { email: true, google: false }, disable_signup: false, mailer_autoconfirm: false });
  /** The URL in a config chunk, the key in the client's chunk: nothing pairs them, nothing says Supabase. */
  const split = (key: string, probes: Record<string, { url: string; status: number; body?: string }> = {}) =>
    makeSite({
      root: { url: 'https://app.test/', body: '<script type="module" src="/assets/index.js"></script>' },
      assets: [
        { url: 'https://app.test/assets/index.js', body: `import{A as u}from"./config.js";const k="${key}",d=Ut(u,k);d.from("orders").select("*");` },
        { url: 'https://app.test/assets/config.js', body: 'const e="https://db.parcelly.io",t="https://app.test",n="https://www.w3.org/2000/svg";export{e as A};' },
      ],
      probes,
    });
  const settingsKey = 'supabase-discovery:https://db.parcelly.io';
  /** What check planners see: the site before any probe answered. */
  const beforeProbes = ({ probes: _answered, ...rest }: Site): SiteBeforeProbes => rest;
  const settingsUrl = 'https://db.parcelly.io/auth/v1/settings';

  it('plans one GoTrue settings request per candidate, never to the site itself or to a URL with a path', () => {
    const site = split(selfHosted);
    expect(analyzeSupabase(beforeProbes(site)).projects).toEqual([]);
    const planned = discoveryProbes(site);
    expect(planned.map((p) => [p.key, p.method, p.url])).toEqual([[settingsKey, 'GET', settingsUrl]]);
    expect(planned[0]!.headers).toMatchObject({ apikey: selfHosted });
  });

  it('takes the origin as a project once it answers like GoTrue, with the key found apart from it', () => {
    const site = split(selfHosted, { [settingsKey]: { url: settingsUrl, status: 200, body: GOTRUE } });
    expect(analyzeSupabase(site).projects).toEqual([{ url: 'https://db.parcelly.io', keys: [selfHosted] }]);
    expect(analyzeSupabase(site).tables[0]).toEqual({ name: 'orders', origin: 'bundle' });
  });

  it('does not take an API that accepts the key but answers 404, or JSON that is not GoTrue, at /auth/v1/settings', () => {
    for (const answer of [
      { url: settingsUrl, status: 404, body: '{"message":"no Route matched with those values"}' },
      { url: settingsUrl, status: 200, body: '{"settings":{"theme":"dark"},"disable_signup":false}' },
      { url: settingsUrl, status: 200, body: '<!doctype html><html></html>' },
      { url: settingsUrl, status: 0 },
    ]) {
      expect(analyzeSupabase(split(selfHosted, { [settingsKey]: answer })).projects).toEqual([]);
    }
  });

  it('stands for the hosted URL only the key named once confirmed, so one project is probed, not two', () => {
    const hosted = fakeSupabaseKey(REF, 'anon');
    const before = split(hosted);
    expect(analyzeSupabase(beforeProbes(before)).projects.map((p) => p.url)).toEqual([`https://${REF}.supabase.co`]);
    const after = split(hosted, { [settingsKey]: { url: settingsUrl, status: 200, body: GOTRUE } });
    expect(analyzeSupabase(after).projects).toEqual([{ url: 'https://db.parcelly.io', keys: [hosted] }]);
  });

  it('looks for no candidate when the key is paired with a named project, and probes at most MAX_CANDIDATES origins, nearest the key first', () => {
    const named = extractSupabase([{ kind: 'script', url: 'u', where: 'script', text: `x("https://db.acme.dev","${selfHosted}");const o="https://api.other.dev";` }]);
    expect(named.candidates).toEqual([]);
    const many = Array.from({ length: 6 }, (_, i) => `"https://api${i}.acme.dev"`).join(',');
    const info = extractSupabase([
      { kind: 'script', url: 'a', where: 'script', text: `const far=[${many}];` },
      { kind: 'script', url: 'b', where: 'script', text: `const x="https://far.acme.dev";${'z'.repeat(500)}const y="https://near.acme.dev";f(y);const k="${selfHosted}";` },
    ]);
    expect(info.candidates.map((c) => c.url)).toEqual(['https://near.acme.dev', 'https://far.acme.dev', 'https://api0.acme.dev']);
    expect(info.candidates).toHaveLength(MAX_CANDIDATES);
  });

  it('ranks a URL written with a Supabase API path first', () => {
    const info = extractSupabase([
      { kind: 'script', url: 'a', where: 'script', text: `const y="https://near.acme.dev";f(y);const k="${selfHosted}";` },
      { kind: 'script', url: 'b', where: 'script', text: 'fetch(`https://db.acme.dev/rest/v1/orders?select=*`)' },
    ]);
    expect(info.candidates.map((c) => c.url)).toEqual(['https://db.acme.dev', 'https://near.acme.dev']);
  });
});
