import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { scanResultSchema } from '../common/scan';
import type { Suppression } from '../common/triage';
import { renderCsv, renderHtml, renderJson, renderSarif } from './report/index';
import { loadSampleResult, parseCsv } from './report/__fixtures__/load';
import { sortFindings } from './report/format';
import { countBySeverity, overallScore } from './score/overall';
import { applySuppressions } from './triage';

// The sample result has two critical findings (a service_role key, an exposed .env) among ten: grade D-.
const SERVICE_KEY = 'bd30e258bef5692d';
const ENV_FILE = '9171b3f2e712716a';
const decisions: Suppression[] = [
  { fingerprint: SERVICE_KEY, decision: 'false_positive', reason: 'A test project key, <b>revoked</b>' },
  { fingerprint: ENV_FILE, decision: 'accepted_risk', reason: 'Dummy values only', expires_at: '2099-01-01T00:00:00.000Z' },
];

describe('applySuppressions', () => {
  it('moves decided findings out of findings, score, grade and counts, and lists them with the decision', () => {
    const sample = loadSampleResult();
    const applied = applySuppressions(sample, decisions);
    expect(applied.findings.map((f) => f.fingerprint)).not.toContain(SERVICE_KEY);
    expect(applied.findings).toHaveLength(sample.findings.length - 2);
    expect(applied.suppressed!.map((f) => [f.fingerprint, f.suppression.decision])).toEqual([
      [SERVICE_KEY, 'false_positive'],
      [ENV_FILE, 'accepted_risk'],
    ]);
    expect(applied.counts).toEqual({ ...sample.counts, critical: 0 });
    expect(applied.counts).toEqual(countBySeverity(applied.findings));
    expect({ score: applied.score, grade: applied.grade }).toEqual(overallScore(applied.findings));
    expect(overallScore(sample.findings).score).toBeLessThan(applied.score);
    expect(scanResultSchema.parse(applied)).toEqual(applied);
  });

  it('leaves a result without decisions as it was, and ignores an expired accepted risk', () => {
    const sample = loadSampleResult();
    expect(applySuppressions(sample, [])).toBe(sample);
    const expired = applySuppressions(sample, [{ fingerprint: ENV_FILE, decision: 'accepted_risk', reason: 'x', expires_at: '2020-01-01T00:00:00.000Z' }]);
    expect(expired).toBe(sample);
  });

  it('applied again with today’s decisions, a reopened finding comes back in the same place', () => {
    const sample = loadSampleResult();
    const stored = applySuppressions(sample, decisions);
    const reopened = applySuppressions(stored, [decisions[1]!]);
    const engineOrder = sortFindings(sample.findings);
    expect(reopened.findings.map((f) => f.fingerprint)).toEqual(engineOrder.filter((f) => f.fingerprint !== ENV_FILE).map((f) => f.fingerprint));
    expect(reopened.suppressed!.map((f) => f.fingerprint)).toEqual([ENV_FILE]);
    expect(applySuppressions(stored, [])).toMatchObject({ findings: engineOrder, suppressed: [], ...overallScore(engineOrder), counts: sample.counts });
  });
});

describe('reports of a result with suppressed findings', () => {
  const result = applySuppressions(loadSampleResult(), decisions);

  it('HTML (and PDF, made from it): its own section with the heading, each decision and reason, escaped', () => {
    const html = renderHtml(result);
    const section = html.slice(html.indexOf('<section id="suppressed">'));
    expect(section).toContain('<h2>Suppressed: 2, with reasons</h2>');
    expect(section).toContain('False positive');
    expect(section).toContain('Accepted risk');
    expect(section).toContain('A test project key, &lt;b&gt;revoked&lt;/b&gt;');
    expect(html).toContain('<a href="#suppressed">2 suppressed</a> left out');
    expect(renderHtml(loadSampleResult())).not.toContain('id="suppressed"');
  });

  it('CSV: a heading line, and the suppressed rows after the open ones with decision and reason', () => {
    const rows = parseCsv(renderCsv(result));
    expect(rows[0]).toEqual(['# Suppressed: 2, with reasons']);
    const header = rows[1]!;
    const body = rows.slice(2);
    expect(body.slice(-2).map((row) => [row[header.indexOf('fingerprint')], row[header.indexOf('decision')], row[header.indexOf('reason')]])).toEqual([
      [ENV_FILE, 'Accepted risk', 'Dummy values only'],
      [SERVICE_KEY, 'False positive', 'A test project key, <b>revoked</b>'],
    ]);
    expect(body.slice(0, -2).every((row) => row[header.indexOf('decision')] === '')).toBe(true);
  });

  it('SARIF: suppressed results carry `suppressions`, and the log stays valid SARIF 2.1.0', () => {
    const log = JSON.parse(renderSarif(result)) as {
      runs: Array<{ results: Array<{ partialFingerprints: Record<string, string>; suppressions?: unknown[] }>; properties: Record<string, unknown> }>;
    };
    const run = log.runs[0]!;
    const byFingerprint = new Map(run.results.map((r) => [r.partialFingerprints['vibeevalFingerprint/v1'], r]));
    expect(byFingerprint.get(SERVICE_KEY)!.suppressions).toEqual([
      { kind: 'external', status: 'accepted', justification: 'False positive: A test project key, <b>revoked</b>', properties: { decision: 'false_positive' } },
    ]);
    expect(byFingerprint.get(ENV_FILE)!.suppressions).toMatchObject([{ kind: 'external', status: 'accepted', properties: { expiresAt: '2099-01-01T00:00:00.000Z' } }]);
    expect(run.results.filter((r) => r.suppressions)).toHaveLength(2);
    expect(run.results).toHaveLength(result.findings.length + 2);
    expect(run.properties.suppressed).toBe(2);
    const schema = JSON.parse(readFileSync(join(__dirname, 'report', '__fixtures__', 'sarif-2.1.0.json'), 'utf8')) as object;
    const ajv = new Ajv2020({ allErrors: true });
    addFormats(ajv);
    const validate = ajv.compile(schema);
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
  });

  it('JSON: the suppressed findings in their own list', () => {
    const json = JSON.parse(renderJson(result)) as { suppressed: Array<{ fingerprint: string; suppression: { reason: string } }> };
    expect(json.suppressed.map((f) => [f.fingerprint, f.suppression.reason])).toEqual([
      [SERVICE_KEY, 'A test project key, <b>revoked</b>'],
      [ENV_FILE, 'Dummy values only'],
    ]);
  });
});
