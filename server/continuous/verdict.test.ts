import { describe, expect, it } from 'vitest';
import type { Finding } from '../../common/scan';
import { judgeBuild } from './verdict';

const finding = (n: number, severity: Finding['severity'], title = `Finding ${n}`): Finding => ({
  fingerprint: n.toString(16).padStart(16, '0'),
  checkId: 'csp-missing',
  family: 'headers',
  title,
  severity,
  confidence: 'high',
  cwe: 693,
  owasp: 'A02',
  url: 'https://shop.example/',
  detail: 'x',
  evidence: {},
  remediation: 'y',
  references: [],
});

const completed = (findings: Finding[], grade = 'C') => ({ state: 'completed' as const, findings, grade, error: null });
const previous = (findings: Finding[]) => ({ id: 'scan-before', findings, grade: 'B' });

describe('judgeBuild', () => {
  it('is a success when nothing new reaches medium, and counts what was fixed', () => {
    const verdict = judgeBuild(completed([finding(1, 'high'), finding(3, 'low')]), previous([finding(1, 'high'), finding(2, 'critical')]));
    expect(verdict).toEqual({
      status: 'success',
      changes: {
        previous_scan_id: 'scan-before',
        grade: 'C',
        previous_grade: 'B',
        new_findings: [expect.objectContaining({ severity: 'low' })],
        new_count: 1,
        fixed_count: 1,
        error: null,
      },
    });
  });

  it('is a warning for a new medium finding and an error for a new high or critical one', () => {
    expect(judgeBuild(completed([finding(1, 'medium'), finding(2, 'info')]), previous([])).status).toBe('warning');
    expect(judgeBuild(completed([finding(1, 'medium'), finding(2, 'high')]), previous([])).status).toBe('error');
    expect(judgeBuild(completed([finding(2, 'critical')]), previous([])).status).toBe('error');
  });

  it('lists at most 20 new findings, most severe first, with the full count', () => {
    const found = [...Array.from({ length: 25 }, (_, i) => finding(i + 10, 'low')), finding(5, 'critical'), finding(6, 'medium')];
    const { changes } = judgeBuild(completed(found), null);
    expect(changes.new_count).toBe(27);
    expect(changes.new_findings).toHaveLength(20);
    expect(changes.new_findings.slice(0, 3).map((f) => f.severity)).toEqual(['critical', 'medium', 'low']);
    expect(changes.new_findings[2]!.fingerprint).toBe(finding(10, 'low').fingerprint); // one severity keeps the scan's order
    expect(changes.previous_scan_id).toBeNull();
  });

  it('is an error carrying the reason when the re-scan failed, with the error and titles bounded', () => {
    const failed = judgeBuild({ state: 'failed', findings: null, grade: null, error: `Could not reach the site: ${'x'.repeat(900)}` }, previous([finding(1, 'high')]));
    expect(failed.status).toBe('error');
    expect(failed.changes).toMatchObject({ grade: null, previous_grade: 'B', new_findings: [], new_count: 0, fixed_count: 0 });
    expect(failed.changes.error).toHaveLength(500);
    expect(failed.changes.error).toMatch(/^Could not reach the site/);
    expect(judgeBuild({ state: 'failed', findings: null, grade: null, error: null }, null).changes.error).toBe('The re-scan could not finish.');
    const long = judgeBuild(completed([finding(1, 'high', 'T'.repeat(1000))]), null);
    expect(long.changes.new_findings[0]!.title.length).toBe(300);
  });
});
