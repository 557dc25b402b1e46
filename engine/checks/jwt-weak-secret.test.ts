import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fakeJwt, fakeSupabaseKey } from '../testing/fake-keys';
import { signedJwt, unsignedJwt } from '../testing/fake-jwts';
import { makeSite } from '../testing/site';
import { jwtWeakSecret } from './jwt-weak-secret';

const user = { sub: 'u-1', role: 'authenticated', exp: 2_000_000_000 };
const page = (script: string, headers: Record<string, string> = {}) => ({ url: 'https://app.test/', headers, body: `<script>${script}</script>` });

describe('jwt-weak-secret', () => {
  it.each([
    ['no tokens', makeSite({ root: page('1') })],
    ['a session signed with a random secret', makeSite({ root: page('1', { 'set-cookie': `session=${signedJwt(user, randomBytes(32).toString('base64'))}` }) })],
    ['a Supabase anon key signed by the hosted project', makeSite({ root: page(`c("${fakeSupabaseKey('abcdefghijklmnopqrst', 'anon')}")`) })],
    ['an unsigned token (jwt-alg-none reports it)', makeSite({ root: page(`t="${unsignedJwt(user)}"`) })],
    ['an opaque signature', makeSite({ root: page(`t="${fakeJwt(user)}"`) })],
  ])('no finding: %s', (_name, site) => {
    expect(jwtWeakSecret.run(site)).toEqual([]);
  });

  it("reports a session cookie signed with 'secret' as critical, the secret masked", () => {
    const token = signedJwt(user, 'secret');
    const findings = jwtWeakSecret.run(makeSite({ root: page('1', { 'set-cookie': `access_token=${token}; Path=/; HttpOnly` }) }));
    expect(findings).toHaveLength(1);
    const [f] = findings;
    expect(f!.severity).toBe('critical');
    expect(f!.title).toBe('Forgeable HS256 session token "access_token": signed with a common secret');
    expect(f!.evidence.match).toContain('secret se****');
    expect(f!.evidence.response).toContain('claims: alg HS256, role authenticated, has a subject (sub)');
    expect(f!.detail).toContain('alg HS256, role authenticated');
    expect(JSON.stringify(f)).not.toContain(token);
    expect(f!.detail).not.toContain('"secret"');
    expect(f!.evidence.match).not.toContain('secret secret');
  });

  it('reports a Supabase anon key signed with the local default secret (service_role can be minted)', () => {
    const anon = signedJwt({ iss: 'supabase-demo', role: 'anon', exp: 1_983_812_996 }, 'super-secret-jwt-token-with-at-least-32-characters-long');
    const findings = jwtWeakSecret.run(
      makeSite({ root: page(''), assets: [{ url: 'https://app.test/assets/index.js', body: `const sb=createClient("https://db.app.test","${anon}")` }] }),
    );
    expect(findings.map((f) => [f.severity, f.url])).toEqual([['critical', 'https://app.test/assets/index.js']]);
    expect(findings[0]!.detail).toContain('mint one and bypass row level security');
    expect(findings[0]!.evidence.match).toContain('su*****');
  });
});
