import { describe, expect, it } from 'vitest';
import { fakeSupabaseKey, fakeToken } from '../testing/fake-keys';
import { makeSite } from '../testing/site';
import { supabaseServiceKey } from './supabase-service-key';

const REF = 'abcdefghijklmnopqrst';
const site = (script: string) => makeSite({ root: { url: 'https://app.test/', body: `<script>${script}</script>` } });

describe('supabase-service-key', () => {
  it.each([
    ['anon key', `Qt("https://${REF}.supabase.co","${fakeSupabaseKey(REF, 'anon')}")`],
    ['publishable key', `Qt("https://${REF}.supabase.co","${'sb_publishable_' + fakeToken(30)}")`],
    ['a user session JWT', `const s="${fakeSupabaseKey(REF, 'authenticated')}"`],
  ])('no finding: %s', (_name, script) => {
    expect(supabaseServiceKey.run(site(script))).toEqual([]);
  });

  it.each([
    ['service_role JWT', fakeSupabaseKey(REF, 'service_role'), 'Supabase service_role key in client code'],
    ['sb_secret_ key', 'sb_secret_' + fakeToken(32), 'Supabase secret key in client code'],
  ])('critical, without any request: %s', (_name, key, title) => {
    const findings = supabaseServiceKey.run(site(`const admin=Qt("https://${REF}.supabase.co","${key}")`));
    expect(findings.map((f) => [f.title, f.severity])).toEqual([[title, 'critical']]);
    expect(JSON.stringify(findings)).not.toContain(key);
    expect(supabaseServiceKey.probes).toBeUndefined();
  });
});
