import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeSupabaseKey } from '../testing/fake-keys';
import { startPostgrestStandIn, type PostgrestStandIn } from '../testing/postgrest-stand-in';
import { makeSite, plannedProbes, type ExchangeInit } from '../testing/site';
import type { ProbeRequest } from '../types';
import { rateReturn, supabaseRpcExposed } from './supabase-rpc-exposed';

const REF = 'abcdefghijklmnopqrst';
const anon = fakeSupabaseKey(REF, 'anon');
const site = (script: string, probes: Record<string, ExchangeInit> = {}) => makeSite({ root: { url: 'https://app.test/', body: `<script>${script}</script>` }, probes });
const client = (url = `https://${REF}.supabase.co`) => `const c=Qt("${url}","${anon}");`;

describe('supabase-rpc-exposed', () => {
  it('no finding without a project or without rpc calls', () => {
    expect(supabaseRpcExposed.run(site('a.rpc("x")'))).toEqual([]);
    expect(supabaseRpcExposed.run(site(client()))).toEqual([]);
  });

  it('lists the functions as info and calls only those whose names do not act, with GET', () => {
    const s = site(`${client()}c.rpc("delete_user",{id:1});c.rpc('get_stats');c.rpc("sendInvite")`);
    const findings = supabaseRpcExposed.run(s);
    expect(findings).toHaveLength(1);
    expect(findings[0]!.detail).toContain('delete_user, get_stats, sendInvite');
    expect(findings[0]!.severity).toBeUndefined();
    expect(plannedProbes(supabaseRpcExposed, s).map((p) => `${p.method} ${p.url}`)).toEqual([`GET https://${REF}.supabase.co/rest/v1/rpc/get_stats`]);
  });

  it.each([
    [['email', 'id'], 'high'],
    [['id', 'password_hash'], 'critical'],
    [['day', 'total'], 'low'],
  ] as const)('rates returned fields %j as %s', (columns, severity) => {
    expect(rateReturn(columns)).toBe(severity);
  });

  describe('against the PostgREST stand-in', () => {
    let standIn: PostgrestStandIn;
    beforeAll(async () => {
      standIn = await startPostgrestStandIn({
        anonKey: anon,
        functions: {
          get_all_users: { returns: [{ id: 'u1', email: 'ann@example.test', full_name: 'Ann' }, { id: 'u2', email: 'bo@example.test', full_name: 'Bo' }] },
          get_public_stats: { returns: { posts: 12 } },
          my_orders: { returns: [] },
          admin_report: { returns: [{ id: 1 }], anon: false },
        },
      });
    });
    afterAll(() => standIn.close());

    async function execute(probes: ProbeRequest[]): Promise<Record<string, ExchangeInit>> {
      const out: Record<string, ExchangeInit> = {};
      for (const probe of probes) {
        const res = await fetch(probe.url, { method: probe.method, headers: probe.headers });
        out[probe.key] = { url: probe.url, status: res.status, body: await res.text(), contentType: 'application/json' };
      }
      return out;
    }

    it('reports the function that returns users, not the empty, refused or harmless ones as high', async () => {
      const script = `${client(standIn.url)}c.rpc("get_all_users");c.rpc("get_public_stats");c.rpc("my_orders");c.rpc("admin_report");c.rpc("missing_fn")`;
      const probes = plannedProbes(supabaseRpcExposed, site(script));
      const findings = supabaseRpcExposed.run(site(script, await execute(probes)));
      expect(findings.map((f) => [f.url.split('/rpc/')[1], f.severity])).toEqual([
        ['', undefined],
        ['get_all_users', 'high'],
        ['get_public_stats', 'low'],
      ]);
      expect(findings[1]!.evidence.response).toBe('HTTP 200\n2 rows; fields (values not kept): id, email, full_name');
      expect(JSON.stringify(findings)).not.toContain('ann@example.test');
      expect(JSON.stringify(findings)).not.toContain(anon);
      expect(standIn.nonReads()).toEqual([]);
      expect(new Set(standIn.requests.map((r) => r.method))).toEqual(new Set(['GET']));
    });
  });
});
