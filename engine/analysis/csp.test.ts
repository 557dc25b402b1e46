import { describe, expect, it } from 'vitest';
import { makeExchange } from '../testing/site';
import { parseHtml } from '../retrieval/html';
import { CspSyntaxError, cspPolicies, effectiveSources, enforcedPolicies, isBroadSource, observatoryCsp, parseCspPolicy } from './csp';

describe('parseCspPolicy', () => {
  it('lower-cases directive names, keeps the first of a repeated directive, and records repeats', () => {
    const policy = parseCspPolicy("Script-Src 'self'; script-src *; ; img-src", 'header');
    expect([...policy.directives]).toEqual([
      ['script-src', ["'self'"]],
      ['img-src', []],
    ]);
    expect(policy.duplicates).toEqual(['script-src']);
  });

  it('drops directives a <meta> policy cannot carry', () => {
    expect([...parseCspPolicy("frame-ancestors 'none'; sandbox; default-src 'self'", 'meta').directives.keys()]).toEqual(['default-src']);
  });
});

describe('cspPolicies', () => {
  it('reads header policies (comma-separated too), meta policies and report-only ones', () => {
    const exchange = makeExchange({
      url: 'https://a.example/',
      headers: { 'content-security-policy': ["default-src 'self', img-src *"], 'content-security-policy-report-only': "script-src 'none'" },
      body: '',
    });
    const html = parseHtml(`<meta http-equiv="Content-Security-Policy" content="object-src 'none'">`, 'https://a.example/');
    const policies = cspPolicies(exchange, html);
    expect(policies.map((policy) => [policy.delivery, policy.raw])).toEqual([
      ['header', "default-src 'self'"],
      ['header', 'img-src *'],
      ['meta', "object-src 'none'"],
      ['report-only', "script-src 'none'"],
    ]);
    expect(enforcedPolicies(policies)).toHaveLength(3);
  });
});

describe('effectiveSources', () => {
  const policy = parseCspPolicy("default-src 'self'; child-src https://frames.example; script-src 'nonce-x'", 'header');
  it.each([
    ['script-src', 'script-src'],
    ['script-src-elem', 'script-src'],
    ['object-src', 'default-src'],
    ['frame-src', 'child-src'],
    ['worker-src', 'child-src'],
  ])('%s falls back to %s', (directive, governing) => {
    expect(effectiveSources(policy, directive)?.directive).toBe(governing);
  });
  it('base-uri and frame-ancestors have no fallback', () => {
    expect(effectiveSources(policy, 'base-uri')).toBeUndefined();
    expect(effectiveSources(policy, 'frame-ancestors')).toBeUndefined();
  });
});

describe('isBroadSource', () => {
  it.each([['*'], ['https:'], ['data:'], ['HTTP:'], ['https://*'], ['blob:']])('%s is broad', (source) => expect(isBroadSource(source)).toBe(true));
  it.each([["'self'"], ['https://cdn.example.com'], ['*.example.com'], ["'none'"]])('%s is not', (source) => expect(isBroadSource(source)).toBe(false));
});

describe('observatoryCsp', () => {
  it('lower-cases sources and turns an empty source list into none', () => {
    const { directives } = observatoryCsp(["Default-Src 'SELF' HTTPS://CDN.Example.com; img-src"]);
    expect(directives.get('default-src')).toEqual(new Set(["'self'", 'https://cdn.example.com']));
    expect(directives.get('img-src')).toEqual(new Set(["'none'"]));
  });

  it('rejects short policies and repeated directives, allowing repeated report-uri', () => {
    expect(() => observatoryCsp(['a b'])).toThrow(CspSyntaxError);
    expect(() => observatoryCsp(["script-src 'self'; script-src 'none'"])).toThrow(CspSyntaxError);
    expect(observatoryCsp(["default-src 'self'; report-uri /a; report-uri /b"]).duplicateReporting).toBe(true);
  });

  it('keeps what several policies share, with path prefixes', () => {
    const { directives } = observatoryCsp(["script-src 'self' https://cdn.example.com/", "script-src https://cdn.example.com/lib/a.js 'unsafe-inline'"]);
    expect(directives.get('script-src')).toEqual(new Set(['https://cdn.example.com/lib/a.js']));
  });
});
