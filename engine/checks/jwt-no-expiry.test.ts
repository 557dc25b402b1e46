import { describe, expect, it } from 'vitest';
import { fakeJwt, fakeSupabaseKey } from '../testing/fake-keys';
import { signedJwt } from '../testing/fake-jwts';
import { makeSite } from '../testing/site';
import { jwtNoExpiry } from './jwt-no-expiry';

const secret = 'k'.repeat(20) + 'Q9x!';
const page = (script: string, headers: Record<string, string> = {}) => ({ url: 'https://app.test/', headers, body: `<script>${script}</script>` });
const anonWithoutExp = fakeJwt({ iss: 'supabase', ref: 'abcdefghijklmnopqrst', role: 'anon', iat: 1 });

describe('jwt-no-expiry', () => {
  it.each([
    ['no tokens', makeSite({ root: page('1') })],
    ['a session cookie with exp', makeSite({ root: page('1', { 'set-cookie': `auth=${signedJwt({ sub: 'u', exp: 2_000_000_000 }, secret)}` }) })],
    ['a Supabase anon key (public by design)', makeSite({ root: page(`c("https://abcdefghijklmnopqrst.supabase.co","${fakeSupabaseKey('abcdefghijklmnopqrst', 'anon')}")`) })],
    ['a Supabase anon key even without exp', makeSite({ root: page(`c("${anonWithoutExp}")`) })],
  ])('no finding: %s', (_name, site) => {
    expect(jwtNoExpiry.run(site)).toEqual([]);
  });

  it('rates a never-expiring token in localStorage medium', () => {
    const token = signedJwt({ sub: 'u-1', email: 'a@b.test', iat: 1_700_000_000 }, secret);
    const site = makeSite({ root: page('1'), rendering: { status: 'done', storage: [{ origin: 'https://app.test', kind: 'local', key: 'accessToken', value: token }] } });
    const [finding, ...rest] = jwtNoExpiry.run(site);
    expect(rest).toEqual([]);
    expect(finding!.severity).toBe('medium');
    expect(finding!.title).toBe('Session token "accessToken" never expires');
    expect(finding!.evidence.match).toContain('claims: sub, email, iat');
    expect(JSON.stringify(finding)).not.toContain(token);
    expect(JSON.stringify(finding)).not.toContain('a@b.test');
  });

  it('rates one in a cookie medium and one in a bundle low', () => {
    const site = makeSite({
      root: page('1', { 'set-cookie': `jwt=${signedJwt({ sub: 'u-2' }, secret)}; HttpOnly` }),
      assets: [{ url: 'https://app.test/assets/index.js', body: `const API_TOKEN="${fakeJwt({ scope: 'read:all' })}"` }],
    });
    expect(jwtNoExpiry.run(site).map((f) => f.severity)).toEqual(['medium', 'low']);
  });
});
