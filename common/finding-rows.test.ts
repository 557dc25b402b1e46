import { describe, expect, it } from 'vitest';
import { distinguishingLines, rowText } from './finding-rows';

const finding = (fingerprint: string, title: string, url: string, detail: string) => ({ fingerprint, title, url, detail });

describe('distinguishingLines', () => {
  it('gives their detail to findings that share a title and an address, and nothing to the others', () => {
    const findings = [
      finding('a1', 'Weak Content-Security-Policy', 'https://shop.example/', "script-src allows 'unsafe-inline'."),
      finding('a2', 'Weak Content-Security-Policy', 'https://shop.example/', "script-src allows 'unsafe-eval'."),
      finding('b1', 'Weak Content-Security-Policy', 'https://shop.example/about', 'base-uri is not set.'),
      finding('c1', 'Exposed .env file', 'https://shop.example/', 'The file answers 200.'),
    ];
    const lines = distinguishingLines(findings);
    expect(Object.fromEntries(lines)).toEqual({ a1: "script-src allows 'unsafe-inline'.", a2: "script-src allows 'unsafe-eval'." });
    expect(new Set(findings.map((f) => rowText(f, lines))).size).toBe(findings.length);
  });

  it('leaves rows that read the same when even their details are the same (the guard tests look for these)', () => {
    const twins = [finding('x1', 'T', 'https://a.example/', 'd'), finding('x2', 'T', 'https://a.example/', 'd')];
    const lines = distinguishingLines(twins);
    expect(rowText(twins[0]!, lines)).toBe(rowText(twins[1]!, lines));
  });
});
