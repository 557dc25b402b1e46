import { describe, expect, it } from 'vitest';
import { makeSite } from '../testing/site';
import { clickjacking } from './clickjacking';

const URL = 'https://app.example.com/';
const run = (headers: Record<string, string>, body = '<p>') => clickjacking.run(makeSite({ root: { url: URL, headers, body } }));

describe('clickjacking', () => {
  it.each([
    [{ 'x-frame-options': 'DENY' }],
    [{ 'x-frame-options': ' sameorigin ' }],
    [{ 'content-security-policy': "frame-ancestors 'self' https://partner.example" }],
    [{ 'content-security-policy': "frame-ancestors 'none'", 'x-frame-options': 'ALLOWALL' }],
  ])('passes: %o', (headers) => {
    expect(run(headers)).toEqual([]);
  });

  it('flags a page with neither header', () => {
    const [finding] = run({});
    expect(finding!.detail).toMatch(/neither X-Frame-Options nor CSP frame-ancestors/);
  });

  it('flags ALLOW-FROM, invalid values, wildcard frame-ancestors and frame-ancestors only in <meta>', () => {
    expect(run({ 'x-frame-options': 'ALLOW-FROM https://a.example' })).toMatchObject([{ evidence: { match: 'ALLOW-FROM https://a.example' } }]);
    expect(run({ 'x-frame-options': 'yes' })).toHaveLength(1);
    expect(run({ 'content-security-policy': 'frame-ancestors *' })).toMatchObject([{ evidence: { match: 'frame-ancestors *' } }]);
    expect(run({}, `<meta http-equiv="Content-Security-Policy" content="frame-ancestors 'none'">`)).toHaveLength(1);
  });
});
