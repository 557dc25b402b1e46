import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fakeJwt, fakeSupabaseKey } from '../testing/fake-keys';
import { signedJwt, unsignedJwt } from '../testing/fake-jwts';
import { makeSite } from '../testing/site';
import { JWT_SECRETS, findJwts, jwtKey, maskWeakSecret, tokensIn, weakSecretOf } from './jwts';
import { cpuTimed } from '../testing/cpu-time';

const claims = { sub: 'user-1', role: 'user', iat: 1_700_000_000 };

describe('jwt discovery', () => {
  it('finds tokens in Set-Cookie, the browser jar, storage and code, each once with its best place', () => {
    const session = signedJwt(claims, randomBytes(32).toString('hex'));
    const inJar = signedJwt({ ...claims, sub: 'user-2' }, 'x'.repeat(40));
    const stored = unsignedJwt({ sub: 'user-3' });
    const shipped = fakeJwt({ scope: 'read' });
    const ssr = `base64-${Buffer.from(JSON.stringify({ access_token: inJar })).toString('base64')}`;
    const site = makeSite({
      root: { url: 'https://app.test/', headers: { 'set-cookie': `token=${session}; Path=/; HttpOnly` }, body: `<script>const t="${shipped}";const s="${session}"</script>` },
      rendering: {
        status: 'done',
        cookies: [{ name: 'sb-x-auth-token', value: ssr, domain: 'app.test', path: '/', secure: true, httpOnly: false, sameSite: 'Lax' }],
        storage: [{ origin: 'https://app.test', kind: 'local', key: 'auth', value: JSON.stringify({ token: stored }) }],
      },
    });
    const found = findJwts(site);
    expect(found.map((j) => [j.place, j.name])).toEqual([
      ['cookie', 'token'],
      ['cookie', 'sb-x-auth-token'],
      ['storage', 'auth'],
      ['code', 'page'],
    ]);
    expect(found[0]!.locations).toHaveLength(2);
    expect(found[2]!.alg).toBe('none');
    // A session is reissued on every visit: known by its cookie name; a token in code by its own hash.
    expect(found.map(jwtKey).slice(0, 3)).toEqual(['cookie:token', 'cookie:sb-x-auth-token', 'storage:auth']);
    expect(jwtKey(found[3]!)).toMatch(/^code:[0-9a-f]{16}$/);
  });

  it('ignores eyJ strings that do not decode and marks Supabase keys by role', () => {
    expect(tokensIn('eyJhbGciOiJI.eyJzdWIiOiJ4Ij.abc')).toEqual([]);
    const anon = fakeSupabaseKey('abcdefghijklmnopqrst', 'anon');
    const site = makeSite({ root: { url: 'https://app.test/', body: `<script>createClient("https://abcdefghijklmnopqrst.supabase.co","${anon}")</script>` } });
    expect(findJwts(site).map((j) => j.supabaseRole)).toEqual(['anon']);
  });
});

describe('weak secret', () => {
  it.each([
    ['secret', 'HS256'],
    ['your-256-bit-secret', 'HS256'],
    ['super-secret-jwt-token-with-at-least-32-characters-long', 'HS256'],
    ['keyboard cat', 'HS384'],
    ['changeme', 'HS512'],
  ] as const)('recovers "%s" (%s)', (secret, alg) => {
    expect(weakSecretOf(signedJwt(claims, secret, alg))).toBe(secret);
  });

  it('finds nothing for a strong secret, an unsigned token or an RS256 header', () => {
    expect(weakSecretOf(signedJwt(claims, randomBytes(32).toString('base64')))).toBeUndefined();
    expect(weakSecretOf(unsignedJwt(claims))).toBeUndefined();
    expect(weakSecretOf(fakeJwt(claims).replace(/^[^.]+/, Buffer.from('{"alg":"RS256"}').toString('base64url')))).toBeUndefined();
  });

  it('masks a secret but its first two characters', () => {
    expect(maskWeakSecret('secret')).toBe('se****');
    expect(maskWeakSecret('keyboard cat')).not.toContain('board');
  });

  it('tries the whole list in well under a second per token', () => {
    expect(JWT_SECRETS.length).toBeGreaterThan(3000);
    const tokens = ['HS256', 'HS384', 'HS512'].map((alg) => signedJwt(claims, randomBytes(24).toString('hex'), alg as 'HS256'));
    const { result: found, ms } = cpuTimed(() => tokens.map((token) => weakSecretOf(token, [...JWT_SECRETS])));
    expect(found).toEqual([undefined, undefined, undefined]);
    const msPerToken = ms / tokens.length;
    console.log(`jwt-weak-secret: ${JWT_SECRETS.length} candidates, ${msPerToken.toFixed(1)} ms per token (HS256/384/512 average)`);
    expect(msPerToken).toBeLessThan(1000);
  });
});
