import { describe, expect, it } from 'vitest';
import { makeSite } from '../testing/site';
import { cookieLooseDomain } from './cookie-loose-domain';

const run = (cookies: string[], url = 'https://app.example.com/') => cookieLooseDomain.run(makeSite({ root: { url, headers: { 'set-cookie': cookies }, body: '' } }));

describe('cookie-loose-domain', () => {
  it.each([[['a=1']], [['a=1; Domain=app.example.com']], [['a=1; Domain=.app.example.com']], [['a=1; Domain=other.example']]])('passes: %o', (cookies) => {
    expect(run(cookies)).toEqual([]);
  });

  it('flags a cookie scoped to the registrable domain', () => {
    const [finding] = run(['sid=abcdefgh; Domain=.example.com; Secure']);
    expect(finding).toMatchObject({ key: 'sid', evidence: { match: 'sid=abcd…; Domain=.example.com; Secure' } });
    expect(finding!.detail).toContain('every subdomain of example.com');
  });

  it('flags a parent below the registrable domain and a public suffix', () => {
    expect(run(['a=1; Domain=eu.example.co.uk'], 'https://app.eu.example.co.uk/')[0]!.detail).toContain('sibling subdomains');
    expect(run(['a=1; Domain=vercel.app'], 'https://my-app.vercel.app/')[0]!.detail).toContain('public suffix');
  });
});
