import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeSupabaseKey } from '../testing/fake-keys';
import { startPostgrestStandIn, type PostgrestStandIn } from '../testing/postgrest-stand-in';
import { makeSite, plannedProbes, type ExchangeInit } from '../testing/site';
import type { ProbeRequest } from '../types';
import { supabaseTableReadable } from './supabase-table-readable';

const REF = 'abcdefghijklmnopqrst';
const HOST = `https://${REF}.supabase.co`;
const anon = fakeSupabaseKey(REF, 'anon');
const BCRYPT = '$2b$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy';
const fixture = readFileSync(join(__dirname, '__fixtures__', 'vite-supabase-bundle.js'), 'utf8');
const bundle = (url: string, key: string) => fixture.replace('__SUPABASE_URL__', url).replace('__ANON_KEY__', key);
const siteWith = (probes: Record<string, ExchangeInit> = {}, url = HOST, key = anon) =>
  makeSite({
    root: { url: 'https://app.test/', body: '<script type="module" src="/assets/index.js"></script>' },
    assets: [{ url: 'https://app.test/assets/index.js', body: bundle(url, key) }],
    probes,
  });
const count = (table: string, contentRange: string, status = 200): Record<string, ExchangeInit> => ({
  [`supabase-table-readable:count:${REF}:${table}`]: { url: `${HOST}/rest/v1/${table}?select=*`, method: 'HEAD', status, headers: { 'content-range': contentRange }, body: '' },
});
const row = (table: string, rows: unknown[]): Record<string, ExchangeInit> => ({
  [`supabase-table-readable:row:${REF}:${table}`]: { url: `${HOST}/rest/v1/${table}?select=*&limit=1`, body: JSON.stringify(rows), contentType: 'application/json' },
});

describe('supabase-table-readable', () => {
  it('plans read-only probes with the anon key, bundle tables first, capped', () => {
    const probes = plannedProbes(supabaseTableReadable, siteWith());
    expect(probes.length).toBeLessThanOrEqual(36);
    expect(new Set(probes.map((p) => p.key)).size).toBe(probes.length);
    expect(probes.every((p) => p.method === 'GET' || p.method === 'HEAD')).toBe(true);
    expect(probes.every((p) => p.key.startsWith('supabase-table-readable:'))).toBe(true);
    expect(probes[0]).toEqual({
      key: `supabase-table-readable:count:${REF}:profiles`,
      method: 'HEAD',
      url: `${HOST}/rest/v1/profiles?select=*`,
      headers: { apikey: anon, Authorization: `Bearer ${anon}`, Accept: 'application/json', Prefer: 'count=exact' },
    });
    expect(probes[1]!.url).toBe(`${HOST}/rest/v1/profiles?select=*&limit=1`);
    expect(plannedProbes(supabaseTableReadable, makeSite({ root: { url: 'https://app.test/', body: '<p>no supabase</p>' } }))).toEqual([]);
  });

  const valid: Record<string, Record<string, ExchangeInit>> = {
    'no answers at all': {},
    'RLS on: 200 with */0 and []': { ...count('profiles', '*/0'), ...row('profiles', []) },
    'unknown table: 404 PGRST205': { ...count('orders', '', 404), ...row('orders', []) },
    'probe failed': { [`supabase-table-readable:count:${REF}:profiles`]: { url: HOST, error: 'ECONNRESET' } },
    'unauthorised: 401': { ...count('profiles', '', 401) },
  };
  it.each(Object.entries(valid))('no finding: %s', (_name, probes) => {
    expect(supabaseTableReadable.run(siteWith(probes))).toEqual([]);
  });

  it('rates each table by the values of the one row read and says why; never keeps values', () => {
    const findings = supabaseTableReadable.run(
      siteWith({
        ...count('profiles', '0-0/1234'),
        ...row('profiles', [{ id: 1, full_name: 'Ada Example', email: 'ada@example.test', password_hash: BCRYPT }]),
        ...count('todos', '*/57'),
      }),
    );
    expect(findings.map((f) => [f.title, f.severity])).toEqual([
      ['Supabase table "profiles" readable with the public key', 'critical'],
      ['Supabase table "todos" readable with the public key', 'low'],
    ]);
    expect(findings[0]!.detail).toBe(
      'Anyone with the site\'s public key can read table "profiles": 1,234 rows. Critical: the one row read holds a password hash, an email address and a person\'s name.',
    );
    expect(findings[0]!.evidence.match).toBe('Content-Range: 0-0/1234');
    expect(findings[0]!.evidence.response).toContain('id, full_name, email, password_hash');
    expect(findings[0]!.evidence.response).toContain('email: a***@example.test (an email address)');
    expect(findings[1]!.detail).toContain('57 rows');
    expect(findings[1]!.detail).toContain('guessed');
    const all = JSON.stringify(findings);
    expect(all).not.toContain('ada@example.test');
    expect(all).not.toContain('Ada Example');
    expect(all).not.toContain(BCRYPT.slice(10));
    expect(all).not.toContain(anon);
    expect(findings.map((f) => f.key)).toEqual([`${REF}/profiles`, `${REF}/todos`]);
  });

  it('rates a public catalogue low, and columns named like private data whose values are not low', () => {
    const findings = supabaseTableReadable.run(
      siteWith({
        ...count('posts', '0-0/12'),
        ...row('posts', [{ id: 3, name: 'Deep Tissue Massage', price: 80, duration: 60 }]),
        ...count('profiles', '0-0/40'),
        ...row('profiles', [{ id: 'a1', ip_address: '6f1e2d3c-0b9a-4877-a665-5f4e3d2c1b0a', token: 'spring-offer', email: 'n/a' }]),
      }),
    );
    expect(findings.map((f) => [f.url.split('/rest/v1/')[1], f.severity])).toEqual([
      ['profiles', 'low'],
      ['posts', 'low'],
    ]);
    expect(findings[1]!.detail).toContain('Low: the rows look like public catalogue content (name, price, duration); nothing personal was seen.');
    expect(findings[0]!.detail).toContain('Low: columns are named like private data (ip_address, token, email) but the values read are not');
  });

  describe('against the PostgREST stand-in', () => {
    let standIn: PostgrestStandIn;
    beforeAll(async () => {
      standIn = await startPostgrestStandIn({
        anonKey: anon,
        tables: {
          profiles: [{ id: 1, email: 'a@example.test', phone: '1' }],
          orders: { rows: [{ id: 1, total: 5 }], rls: true },
          waitlist: [
            { id: 1, created_at: 'now' },
            { id: 2, created_at: 'now' },
          ],
        },
      });
    });
    afterAll(() => standIn.close());

    /** A minimal stand-in for the runner: executes planned probes with fetch, to the stand-in only. */
    async function execute(probes: ProbeRequest[]): Promise<Record<string, ExchangeInit>> {
      const out: Record<string, ExchangeInit> = {};
      for (const probe of probes) {
        if (!probe.url.startsWith(standIn.url)) continue;
        const res = await fetch(probe.url, { method: probe.method, headers: probe.headers });
        out[probe.key] = { url: probe.url, method: probe.method, status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() };
      }
      return out;
    }

    it('finds the readable tables, and sends nothing but GET and HEAD', async () => {
      const site = siteWith({}, standIn.url, anon);
      const probes = plannedProbes(supabaseTableReadable, site);
      expect(probes[0]!.url).toBe(`${standIn.url}/rest/v1/profiles?select=*`);
      const answered = siteWith(await execute(probes), standIn.url, anon);
      const findings = supabaseTableReadable.run(answered);
      expect(findings.map((f) => [f.url, f.severity, f.detail])).toEqual([
        [`${standIn.url}/rest/v1/profiles`, 'high', `Anyone with the site's public key can read table "profiles": 1 row. High: the one row read holds an email address.`],
        [
          `${standIn.url}/rest/v1/waitlist`,
          'low',
          `Anyone with the site's public key can read table "waitlist": 2 rows. Low: the one row read holds no personal data or credentials (id, created_at).`,
        ],
      ]);
      expect(standIn.requests.length).toBe(probes.length);
      expect(new Set(standIn.requests.map((r) => r.method))).toEqual(new Set(['GET', 'HEAD']));
      expect(standIn.requests.every((r) => r.headers.apikey === anon)).toBe(true);
    });

    it('reports a view that leaks rows of an RLS-protected table (owner-rights view) like a table', async () => {
      const views = await startPostgrestStandIn({
        anonKey: anon,
        tables: {
          members: { rows: [{ id: 1, email: 'a@example.test' }], rls: true },
          member_directory: { rows: [{ id: 1, email: 'a@example.test', full_name: 'Ann' }], view: true },
        },
      });
      try {
        const site = (probes: Record<string, ExchangeInit> = {}) =>
          makeSite({
            root: { url: 'https://app.test/', body: '<script type="module" src="/assets/index.js"></script>' },
            assets: [
              { url: 'https://app.test/assets/index.js', body: `const s=Qt("${views.url}","${anon}");s.from("members").select("*");s.from("member_directory").select("id,email")` },
            ],
            probes,
          });
        const probes = plannedProbes(supabaseTableReadable, site()).filter((p) => p.url.startsWith(views.url));
        const answers: Record<string, ExchangeInit> = {};
        for (const probe of probes) {
          const res = await fetch(probe.url, { method: probe.method, headers: probe.headers });
          answers[probe.key] = { url: probe.url, method: probe.method, status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() };
        }
        const findings = supabaseTableReadable.run(site(answers));
        expect(findings.map((f) => [f.url.split('/rest/v1/')[1], f.severity])).toEqual([['member_directory', 'high']]);
        expect(views.nonReads()).toEqual([]);
      } finally {
        await views.close();
      }
    });
  });
});
