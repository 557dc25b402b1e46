import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { scanResultSchema, type Finding, type ScanResult } from '../../../common/scan';

/** The sample scan result, parsed with the schema so a fixture that drifts from it fails loudly. */
export function loadSampleResult(): ScanResult {
  return scanResultSchema.parse(JSON.parse(readFileSync(join(__dirname, 'sample-result.json'), 'utf8')));
}

/** A finding whose every text is hostile, as a scanned site could make it. */
export function hostileFinding(overrides: Partial<Finding> = {}): Finding {
  return {
    fingerprint: 'deadbeefdeadbeef',
    checkId: 'disclosure-html-comment',
    family: 'disclosure',
    title: '<img src=x onerror=alert(1)> title',
    severity: 'high',
    confidence: 'low',
    cwe: 79,
    owasp: 'A05',
    url: 'https://evil.example/"><script>alert(2)</script>',
    detail: '</p><script>alert(3)</script><p>',
    evidence: {
      request: 'GET /<script>alert(4)</script> HTTP/1.1',
      response: '<html><script src="https://evil.example/x.js"></script></html>',
      match: '<script>alert(5)</script>',
    },
    remediation: "'\"><iframe src=javascript:alert(6)>",
    references: ['javascript:alert(7)', 'https://evil.example/ref"onmouseover="alert(8)'],
    ...overrides,
  };
}
