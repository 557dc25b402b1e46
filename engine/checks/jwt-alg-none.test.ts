import { describe, expect, it } from 'vitest';
import { fakeJwt } from '../testing/fake-keys';
import { signedJwt, unsignedJwt } from '../testing/fake-jwts';
import { makeSite } from '../testing/site';
import { jwtAlgNone } from './jwt-alg-none';

const user = { sub: 'u-1', role: 'user', exp: 2_000_000_000 };
const page = (script: string, headers: Record<string, string> = {}) => ({ url: 'https://app.test/', headers, body: `<script>${script}</script>` });

describe('jwt-alg-none', () => {
  it.each([
    ['no tokens', makeSite({ root: page('1') })],
    ['a signed session cookie', makeSite({ root: page('1', { 'set-cookie': `session=${signedJwt(user, 'a'.repeat(48))}; HttpOnly` }) })],
    ['a signed token in a bundle', makeSite({ root: page(`x="${fakeJwt(user)}"`) })],
  ])('no finding: %s', (_name, site) => {
    expect(jwtAlgNone.run(site)).toEqual([]);
  });

  it('rates an unsigned session the site issues critical', () => {
    const token = unsignedJwt(user, 'None');
    const findings = jwtAlgNone.run(makeSite({ root: page('1', { 'set-cookie': `session=${token}; Path=/` }) }));
    expect(findings).toHaveLength(1);
    expect(findings[0]!.severity).toBe('critical');
    expect(findings[0]!.title).toContain('"session"');
    expect(findings[0]!.evidence.match).toContain('alg "None"');
    expect(JSON.stringify(findings)).not.toContain(token);
  });

  it('rates an unsigned token in storage critical and one shipped in code high', () => {
    const stored = unsignedJwt({ sub: 'u-2' }, 'NONE');
    const shipped = unsignedJwt({ sub: 'svc', scope: 'admin' });
    const site = makeSite({
      root: page(`const ADMIN="${shipped}"`),
      rendering: { status: 'done', storage: [{ origin: 'https://app.test', kind: 'local', key: 'jwt', value: stored }] },
    });
    expect(jwtAlgNone.run(site).map((f) => [f.severity, f.url])).toEqual([
      ['critical', 'https://app.test'],
      ['high', 'https://app.test/'],
    ]);
  });
});
