import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeSupabaseKey, fakeToken } from '../testing/fake-keys';
import { makeSite } from '../testing/site';
import { shannonEntropy } from './entropy';
import { decodeJwt, describeJwt, supabaseJwtRole } from './jwt';
import { maskAll, maskSecret, secretId } from './mask';
import { collectTexts, findSecrets, scanText } from './scan';
import { cpuTimed } from '../testing/cpu-time';

const root = join(__dirname, '..', '..');

describe('masking', () => {
  it('keeps at most the first 6 and last 4 characters', () => {
    const key = 'sk_' + 'live_' + fakeToken(40);
    expect(maskSecret(key)).toBe(`${key.slice(0, 6)}…${key.slice(-4)}`);
    expect(maskSecret('abcdefghijklmnop')).toBe('ab…op');
    expect(maskSecret('short')).toBe('*****');
    expect(maskAll(`a ${key} b ${key}`, [key])).not.toContain(key);
    expect(secretId(key)).toMatch(/^[0-9a-f]{16}$/);
  });
});

describe('jwt and entropy', () => {
  it('decodes Supabase key roles without checking signatures', () => {
    expect(supabaseJwtRole(fakeSupabaseKey('abcdefghijklmnopqrst', 'anon'))).toEqual({ role: 'anon', ref: 'abcdefghijklmnopqrst' });
    expect(supabaseJwtRole('a.b.c')).toBeUndefined();
    expect(decodeJwt('eyJhbGciOiJIUzI1NiJ9.bm90IGpzb24.sig')).toBeUndefined();
    expect(describeJwt(fakeSupabaseKey('abcdefghijklmnopqrst', 'service_role'))).toContain('role service_role');
  });
  it('measures entropy', () => {
    expect(shannonEntropy('aaaaaaaa')).toBe(0);
    expect(shannonEntropy(fakeToken(40))).toBeGreaterThan(4);
  });
});

describe('findSecrets over a site', () => {
  const openai = 'sk-' + 'proj-' + fakeToken(80, undefined, 3);
  const anon = fakeSupabaseKey('abcdefghijklmnopqrst', 'anon');
  const site = makeSite({
    root: { url: 'https://app.test/', body: `<html><script>window.K="${openai}"</script><script src="/assets/index.js"></script></html>` },
    assets: [
      { url: 'https://app.test/assets/index.js', body: `const c=Xe("https://abcdefghijklmnopqrst.supabase.co","${anon}");fetch(u,{headers:{Authorization:"Bearer ${openai}"}})` },
      {
        url: 'https://app.test/assets/index.js.map',
        kind: 'sourcemap',
        body: JSON.stringify({
          version: 3,
          sources: ['src/lib/ai.ts', 'node_modules/lib/readme.ts'],
          sourcesContent: [`export const KEY = "${openai}";`, `const k = "${'sk_' + 'live_' + fakeToken(30)}"`],
        }),
      },
    ],
    rendering: {
      status: 'done',
      requests: [{ url: `https://maps.googleapis.com/maps/api/js?key=${'AIza' + fakeToken(35, undefined, 9)}`, method: 'GET', resourceType: 'script' }],
      storage: [{ origin: 'https://app.test', kind: 'local', key: 'openai', value: openai }],
    },
  });

  it('collects HTML, scripts, source map sources (not dependencies), requests and storage', () => {
    const kinds = collectTexts(site).map((t) => `${t.kind}:${t.where}`);
    expect(kinds).toEqual(['html:page', 'script:script', 'sourcemap:source map src/lib/ai.ts', 'request:GET request made by the page', 'storage:localStorage "openai"']);
  });

  it('reports one entry per distinct secret with every place it was seen, masked', () => {
    const found = findSecrets(site);
    const key = found.find((f) => f.ruleId === 'openai-project-key')!;
    expect(key.locations.map((l) => l.where)).toEqual(['page', 'script', 'source map src/lib/ai.ts', 'localStorage "openai"']);
    expect(key.masked).toBe(maskSecret(openai));
    expect(key.snippet).not.toContain(openai);
    const google = found.find((f) => f.ruleId === 'google-api-key')!;
    expect(google.locations[0]!.url).not.toContain(google.secret);
    expect(found.find((f) => f.ruleId === 'stripe-secret-key')).toBeUndefined();
    expect(findSecrets(site)).toBe(found); // memoised
  });

  it('scans 2 MB of minified JavaScript in under 300 ms', () => {
    // Real minified code (React DOM production build + supabase-js UMD), see __fixtures__/README.md in engine/checks.
    const parts = ['node_modules/react-dom/cjs/react-dom-client.production.js', 'node_modules/@supabase/supabase-js/dist/umd/supabase.js'].map((f) =>
      readFileSync(join(root, f), 'utf8'),
    );
    let bundle = '';
    while (bundle.length < 2_000_000) bundle += parts.join(';\n');
    bundle = bundle.slice(0, 1_000_000) + `;const s="${openai}";` + bundle.slice(1_000_000, 2_000_000);
    scanText(bundle.slice(0, 100_000), 'script'); // warm the regex compiler
    const { result: hits, ms } = cpuTimed(() => scanText(bundle, 'script'));
    expect(hits.map((h) => h.ruleId)).toEqual(['openai-project-key']);
    expect(ms).toBeLessThan(300);
  });
});
