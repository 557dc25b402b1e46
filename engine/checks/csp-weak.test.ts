import { describe, expect, it } from 'vitest';
import { makeSite } from '../testing/site';
import { cspWeak } from './csp-weak';

const URL = 'https://app.example.com/';
const run = (csp: string | string[], body = '<p>') => cspWeak.run(makeSite({ root: { url: URL, headers: { 'content-security-policy': csp }, body } }));
const keys = (csp: string | string[]) => run(csp).map((finding) => finding.key);

describe('csp-weak', () => {
  it.each([
    ["default-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"],
    ["script-src 'nonce-r4nd0m' 'strict-dynamic' https: 'unsafe-inline'; object-src 'none'; base-uri 'self'; frame-ancestors 'self'"],
    ["default-src 'none'; script-src 'sha256-abc=' 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'"],
  ])('passes: %s', (csp) => {
    expect(run(csp)).toEqual([]);
  });

  it("flags 'unsafe-inline' reached through the default-src fallback", () => {
    const [finding] = run("default-src 'self' 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'");
    expect(finding).toMatchObject({ key: 'script-unsafe-inline', severity: 'medium', evidence: { match: "default-src 'self' 'unsafe-inline'" } });
  });

  it('flags unsafe-eval, scheme-only sources and missing object-src/base-uri/frame-ancestors', () => {
    expect(keys("script-src 'self' 'unsafe-eval' https: data:")).toEqual(['script-broad', 'unsafe-eval', 'object-unrestricted', 'base-uri-missing', 'frame-ancestors-missing']);
    expect(keys("default-src *; base-uri 'none'; frame-ancestors 'none'")).toEqual(['script-broad', 'object-broad']);
    expect(keys("img-src 'self'; base-uri 'none'; frame-ancestors 'none'")).toEqual(['script-unrestricted', 'object-unrestricted']);
  });

  it('counts a weakness only when every enforced policy has it', () => {
    // The second policy blocks inline scripts the first allows.
    expect(keys(["script-src 'unsafe-inline' 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'", "script-src 'self'"])).toEqual([]);
  });

  it('ignores report-only policies and frame-ancestors in <meta>', () => {
    const body = `<meta http-equiv="content-security-policy" content="default-src 'self'; base-uri 'none'; frame-ancestors 'none'">`;
    const findings = cspWeak.run(makeSite({ root: { url: URL, headers: { 'content-security-policy-report-only': "script-src 'unsafe-inline'" }, body } }));
    expect(findings).toEqual([]);
  });
});
