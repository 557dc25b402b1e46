import { describe, expect, it } from 'vitest';
import { frameAncestorsAllow, framingVerdict } from './framing';

const PAGE = 'https://site.example/app';
const EMBEDDER = 'http://127.0.0.1:8787/vibe-loop';

/** The verdict for a page at `page` framed by `embedder`, with the given header fields (repeats allowed). */
function verdict(fields: Array<[string, string]>, page = PAGE, embedder = EMBEDDER) {
  return framingVerdict(fields, page, embedder);
}

describe('framingVerdict: X-Frame-Options', () => {
  it.each([
    ['no header at all', []],
    ['ALLOW-FROM (ignored by current browsers)', [['x-frame-options', 'ALLOW-FROM http://127.0.0.1:8787']]],
    ['ALLOWALL alone', [['x-frame-options', 'ALLOWALL']]],
    ['an unknown value', [['x-frame-options', 'yes please']]],
    ['two unknown values', [['x-frame-options', 'foo, bar']]],
    ['an empty value', [['x-frame-options', '  ']]],
  ] as Array<[string, Array<[string, string]>]>)('allows: %s', (_label, fields) => {
    expect(verdict(fields)).toEqual({ allowed: true });
  });

  it('refuses DENY in any case and with spaces, naming the host', () => {
    for (const value of ['DENY', 'deny', ' Deny ']) {
      expect(verdict([['x-frame-options', value]])).toEqual({
        allowed: false,
        reason: 'site.example does not allow being shown inside another page (X-Frame-Options).',
      });
    }
  });

  it('refuses SAMEORIGIN from another origin, allows it from the same origin', () => {
    expect(verdict([['x-frame-options', 'SAMEORIGIN']]).allowed).toBe(false);
    expect(verdict([['x-frame-options', 'SAMEORIGIN']], PAGE, 'https://site.example/other').allowed).toBe(true);
    // Same host, other port: another origin.
    expect(verdict([['x-frame-options', 'sameorigin']], 'http://127.0.0.1:9000/', EMBEDDER).allowed).toBe(false);
  });

  it('refuses conflicting values (in one field or in several) when one of them is known', () => {
    expect(verdict([['x-frame-options', 'DENY, SAMEORIGIN']]).allowed).toBe(false);
    expect(
      verdict(
        [
          ['x-frame-options', 'SAMEORIGIN'],
          ['x-frame-options', 'ALLOWALL'],
        ],
        PAGE,
        'https://site.example/',
      ).allowed,
    ).toBe(false);
    // The same value twice is one value.
    expect(
      verdict(
        [
          ['x-frame-options', 'SAMEORIGIN'],
          ['x-frame-options', 'sameorigin'],
        ],
        PAGE,
        'https://site.example/',
      ).allowed,
    ).toBe(true);
  });
});

describe('framingVerdict: CSP frame-ancestors', () => {
  it("refuses 'none' and an empty list", () => {
    expect(verdict([['content-security-policy', "frame-ancestors 'none'"]])).toEqual({
      allowed: false,
      reason: 'site.example does not allow being shown inside another page (frame-ancestors).',
    });
    expect(verdict([['content-security-policy', 'default-src *; frame-ancestors']]).allowed).toBe(false);
  });

  it("judges 'self' by the framed page's origin (and its https upgrade)", () => {
    expect(verdict([['content-security-policy', "frame-ancestors 'self'"]]).allowed).toBe(false);
    expect(verdict([['content-security-policy', "frame-ancestors 'self'"]], PAGE, 'https://site.example/x').allowed).toBe(true);
    expect(verdict([['content-security-policy', "frame-ancestors 'self'"]], 'http://site.example/', 'https://site.example/').allowed).toBe(true);
    expect(verdict([['content-security-policy', "frame-ancestors 'self'"]], 'https://site.example/', 'http://site.example/').allowed).toBe(false);
  });

  it('allows * and scheme sources for web embedders', () => {
    expect(verdict([['content-security-policy', 'frame-ancestors *']]).allowed).toBe(true);
    expect(verdict([['content-security-policy', 'frame-ancestors http:']]).allowed).toBe(true);
    expect(verdict([['content-security-policy', 'frame-ancestors https:']]).allowed).toBe(false);
    expect(verdict([['content-security-policy', 'frame-ancestors https:']], PAGE, 'https://app.example/').allowed).toBe(true);
  });

  it('matches host lists: exact host and port, wildcard subdomains, paths', () => {
    const allows = (sources: string, embedder = EMBEDDER) => verdict([['content-security-policy', `frame-ancestors ${sources}`]], PAGE, embedder).allowed;
    expect(allows('https://partner.example http://127.0.0.1:8787')).toBe(true);
    expect(allows('http://127.0.0.1:9999')).toBe(false);
    expect(allows('http://127.0.0.1:*')).toBe(true);
    // No port in the source: the scheme's default port only.
    expect(allows('http://127.0.0.1')).toBe(false);
    expect(allows('http://127.0.0.1', 'http://127.0.0.1/')).toBe(true);
    // No scheme: the framed page's (https) scheme.
    expect(allows('partner.example', 'http://partner.example/')).toBe(false);
    expect(allows('partner.example', 'https://partner.example/')).toBe(true);
    expect(allows('*.example.com', 'https://a.b.example.com/')).toBe(true);
    expect(allows('*.example.com', 'https://example.com/')).toBe(false);
    expect(allows('https://partner.example/embeds/', 'https://partner.example/embeds/one')).toBe(true);
    expect(allows('https://partner.example/embeds/', 'https://partner.example/other')).toBe(false);
    expect(allows('https://partner.example/exact', 'https://partner.example/exact')).toBe(true);
    expect(allows('HTTPS://PARTNER.EXAMPLE', 'https://partner.example/')).toBe(true);
    // An http source on its default port allows the https upgrade.
    expect(allows('http://partner.example', 'https://partner.example/')).toBe(true);
  });

  it("ignores 'none' beside other sources, and keywords, nonces and hashes", () => {
    expect(verdict([['content-security-policy', "frame-ancestors 'none' http://127.0.0.1:8787"]]).allowed).toBe(true);
    expect(verdict([['content-security-policy', "frame-ancestors 'unsafe-inline' 'nonce-abc' 'sha256-xyz'"]]).allowed).toBe(false);
  });

  it('wins over X-Frame-Options when both are present, in either direction', () => {
    expect(
      verdict([
        ['x-frame-options', 'DENY'],
        ['content-security-policy', 'frame-ancestors *'],
      ]).allowed,
    ).toBe(true);
    expect(
      verdict([
        ['x-frame-options', 'ALLOWALL'],
        ['content-security-policy', "frame-ancestors 'none'"],
      ]).allowed,
    ).toBe(false);
  });

  it('ignores report-only policies (then X-Frame-Options decides)', () => {
    expect(verdict([['content-security-policy-report-only', "frame-ancestors 'none'"]]).allowed).toBe(true);
    expect(
      verdict([
        ['content-security-policy-report-only', 'frame-ancestors *'],
        ['x-frame-options', 'DENY'],
      ]).allowed,
    ).toBe(false);
  });

  it('requires every enforced policy to allow it: several headers, or several policies in one header', () => {
    expect(
      verdict([
        ['content-security-policy', 'frame-ancestors *'],
        ['content-security-policy', "frame-ancestors 'self'"],
      ]).allowed,
    ).toBe(false);
    expect(verdict([['content-security-policy', "frame-ancestors *, frame-ancestors 'none'"]]).allowed).toBe(false);
    expect(
      verdict([
        ['content-security-policy', 'frame-ancestors *'],
        ['content-security-policy', 'frame-ancestors http://127.0.0.1:8787'],
      ]).allowed,
    ).toBe(true);
    // A policy without frame-ancestors restricts nothing here, and does not turn X-Frame-Options off.
    expect(
      verdict([
        ['content-security-policy', "default-src 'none'"],
        ['x-frame-options', 'DENY'],
      ]).allowed,
    ).toBe(false);
    expect(verdict([['content-security-policy', "default-src 'none'"]]).allowed).toBe(true);
  });

  it('takes the first frame-ancestors of a policy, as browsers do', () => {
    expect(verdict([['content-security-policy', "frame-ancestors *; frame-ancestors 'none'"]]).allowed).toBe(true);
  });
});

describe('frameAncestorsAllow', () => {
  it('refuses non-web embedders for *', () => {
    expect(frameAncestorsAllow(['*'], new URL('file:///tmp/x.html'), new URL(PAGE))).toBe(false);
    expect(frameAncestorsAllow(['*'], new URL('https://a.example/'), new URL(PAGE))).toBe(true);
  });
});
