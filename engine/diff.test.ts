import { describe, expect, it } from 'vitest';
import type { Finding } from '../common/scan';
import { diffScans } from './diff';

const finding = (fingerprint: string): Finding => ({
  fingerprint,
  checkId: 'csp-missing',
  family: 'headers',
  title: 'No Content-Security-Policy',
  severity: 'medium',
  confidence: 'high',
  cwe: 693,
  owasp: 'A02',
  url: 'https://a.example/',
  detail: 'x',
  evidence: {},
  remediation: 'y',
  references: [],
});

describe('diffScans', () => {
  it('sorts findings into added, fixed and unchanged by fingerprint', () => {
    const diff = diffScans({ findings: [finding('aaaaaaaaaaaaaaaa'), finding('bbbbbbbbbbbbbbbb')] }, { findings: [finding('bbbbbbbbbbbbbbbb'), finding('cccccccccccccccc')] });
    expect(diff.added.map((f) => f.fingerprint)).toEqual(['cccccccccccccccc']);
    expect(diff.fixed.map((f) => f.fingerprint)).toEqual(['aaaaaaaaaaaaaaaa']);
    expect(diff.unchanged.map((f) => f.fingerprint)).toEqual(['bbbbbbbbbbbbbbbb']);
  });

  it('treats everything as new on a first scan', () => {
    expect(diffScans(undefined, { findings: [finding('aaaaaaaaaaaaaaaa')] }).added).toHaveLength(1);
  });
});
