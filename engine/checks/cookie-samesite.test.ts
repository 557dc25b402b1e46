import { describe, expect, it } from 'vitest';
import { makeSite } from '../testing/site';
import { cookieSameSite } from './cookie-samesite';

const run = (cookies: string[]) => cookieSameSite.run(makeSite({ root: { url: 'https://app.example.com/', headers: { 'set-cookie': cookies }, body: '' } }));

describe('cookie-samesite', () => {
  it.each([[['session=1; SameSite=Lax; Secure']], [['prefs=1; samesite=strict']], [['_ga=1']]])('passes: %o', (cookies) => {
    expect(run(cookies)).toEqual([]);
  });

  it('flags missing, None and invalid SameSite values', () => {
    const findings = run(['a=1', 'b=2; SameSite=None; Secure', 'c=3; SameSite=maybe']);
    expect(findings.map((finding) => finding.key)).toEqual(['a', 'b', 'c']);
    expect(findings[2]!.detail).toContain('invalid SameSite value');
  });
});
