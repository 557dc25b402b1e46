import { describe, expect, it } from 'vitest';
import { fakeSupabaseKey } from '../testing/fake-keys';
import { makeSite } from '../testing/site';
import { supabaseRpcExposed } from './supabase-rpc-exposed';

const REF = 'abcdefghijklmnopqrst';
const site = (script: string) => makeSite({ root: { url: 'https://app.test/', body: `<script>${script}</script>` } });

describe('supabase-rpc-exposed', () => {
  it('no finding without a project or without rpc calls', () => {
    expect(supabaseRpcExposed.run(site('a.rpc("x")'))).toEqual([]);
    expect(supabaseRpcExposed.run(site(`Qt("https://${REF}.supabase.co","${fakeSupabaseKey(REF, 'anon')}")`))).toEqual([]);
  });
  it('lists the functions as info, without calling them', () => {
    const findings = supabaseRpcExposed.run(site(`const c=Qt("https://${REF}.supabase.co","${fakeSupabaseKey(REF, 'anon')}");c.rpc("delete_user",{id:1});c.rpc('get_stats')`));
    expect(findings).toHaveLength(1);
    expect(findings[0]!.detail).toContain('delete_user, get_stats');
    expect(findings[0]!.severity).toBeUndefined();
    expect(supabaseRpcExposed.probes).toBeUndefined();
  });
});
