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

  it('counts a suppressed finding neither as fixed (decided since) nor as new (reopened since)', () => {
    const suppressed = (fingerprint: string) => ({ ...finding(fingerprint), suppression: { decision: 'false_positive' as const, reason: 'test data' } });
    const decidedSince = diffScans({ findings: [finding('aaaaaaaaaaaaaaaa')] }, { findings: [], suppressed: [suppressed('aaaaaaaaaaaaaaaa')] });
    expect(decidedSince).toEqual({ added: [], fixed: [], unchanged: [] });
    const reopened = diffScans({ findings: [], suppressed: [suppressed('aaaaaaaaaaaaaaaa')] }, { findings: [finding('aaaaaaaaaaaaaaaa')] });
    expect(reopened.added).toEqual([]);
    expect(reopened.unchanged.map((f) => f.fingerprint)).toEqual(['aaaaaaaaaaaaaaaa']);
  });

  it('treats everything as new on a first scan', () => {
    expect(diffScans(undefined, { findings: [finding('aaaaaaaaaaaaaaaa')] }).added).toHaveLength(1);
  });
});
