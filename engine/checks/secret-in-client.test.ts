import { describe, expect, it } from 'vitest';
import { fakeSupabaseKey, fakeToken } from '../testing/fake-keys';
import { makeSite } from '../testing/site';
import { secretInClient } from './secret-in-client';

const openai = 'sk-' + 'proj-' + fakeToken(80, undefined, 5);
const stripe = 'sk_' + 'live_' + fakeToken(30, undefined, 6);
const page = (script: string) => ({ url: 'https://app.test/', body: `<html><head><script>${script}</script></head></html>` });

describe('secret-in-client', () => {
  const valid = {
    'no keys at all': makeSite({ root: page('console.log("hello")') }),
    'only public keys': makeSite({
      root: page(
        `const s=createClient("https://abcdefghijklmnopqrst.supabase.co","${fakeSupabaseKey('abcdefghijklmnopqrst', 'anon')}");loadStripe("${'pk_' + 'live_' + fakeToken(24)}")`,
      ),
    }),
    'placeholders and env references': makeSite({ root: page('const cfg={apiKey:import.meta.env.VITE_OPENAI_KEY,secret:"your_secret_here_000000000000"}') }),
    'a service_role key (reported by supabase-service-key)': makeSite({ root: page(`x("${fakeSupabaseKey('abcdefghijklmnopqrst', 'service_role')}")`) }),
  };
  it.each(Object.entries(valid))('no finding: %s', (_name, site) => {
    expect(secretInClient.run(site)).toEqual([]);
  });

  it('reports each distinct secret once, with every place it was seen, masked everywhere', () => {
    const site = makeSite({
      root: page(`window.OPENAI="${openai}"`),
      assets: [
        { url: 'https://app.test/assets/index-abc.js', body: `fetch(u,{headers:{Authorization:"Bearer ${openai}"}});const st=Stripe("${stripe}")` },
        { url: 'https://app.test/assets/index-abc.js.map', kind: 'sourcemap', body: JSON.stringify({ sources: ['src/ai.ts'], sourcesContent: [`export const k = "${openai}"`] }) },
      ],
      rendering: { status: 'done', storage: [{ origin: 'https://app.test', kind: 'local', key: 'cfg', value: `{"k":"${openai}"}` }] },
    });
    const findings = secretInClient.run(site);
    expect(findings.map((f) => [f.title, f.severity])).toEqual([
      ['OpenAI project API key in client code', 'critical'],
      ['Stripe secret key in client code', 'critical'],
    ]);
    expect(findings[0]!.evidence.response!.split('\n')).toEqual([
      'page: https://app.test/',
      'script: https://app.test/assets/index-abc.js',
      'source map src/ai.ts: https://app.test/assets/index-abc.js.map',
      'localStorage "cfg": https://app.test',
    ]);
    expect(findings[0]!.detail).toContain('4 places');
    const all = JSON.stringify(findings);
    expect(all).not.toContain(openai);
    expect(all).not.toContain(stripe);
    expect(findings[0]!.key).not.toBe(findings[1]!.key);
    expect(findings[0]!.key).toMatch(/^openai-project-key:[0-9a-f]{16}$/);
  });

  it('takes severity from the key: a Stripe test key is low, a generic high-entropy password high with low confidence', () => {
    const site = makeSite({ root: page(`Stripe("${'sk_' + 'test_' + fakeToken(30)}");const dbPassword="${fakeToken(24, undefined, 9)}"`) });
    expect(secretInClient.run(site).map((f) => [f.severity, f.confidence])).toEqual([
      ['low', 'high'],
      ['high', 'low'],
    ]);
  });
});
