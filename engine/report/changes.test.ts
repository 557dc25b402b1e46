import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { changesJson, type ReportChanges } from './changes';
import { renderHtml } from './html';
import { renderCsv } from './csv';
import { renderJson } from './json';
import { renderSarif } from './sarif';
import { hostileFinding, loadSampleResult, parseCsv } from './__fixtures__/load';

// What changed since the previous scan, in each report format: HTML's 'Since the previous scan' (N new, N fixed,
// which, escaped like the page), JSON's `sincePrevious`, SARIF's baselineState (still a valid SARIF 2.1.0 log).

const sample = loadSampleResult();
const hostile = hostileFinding({ fingerprint: 'feedfacefeedface' });
const result = { ...sample, findings: [...sample.findings, hostile] };
const gone = { ...sample.findings[0]!, fingerprint: 'c0ffeec0ffeec0ff', title: 'Old hole & gone', checkId: 'exposed-git-directory' };
const changes: ReportChanges = { previousFinishedAt: '2026-11-20T10:00:00.000Z', added: [hostile, sample.findings[1]!], fixed: [gone] };

const validateSarif = (() => {
  const ajv = new Ajv2020({ allErrors: true });
  addFormats(ajv);
  return ajv.compile(JSON.parse(readFileSync(join(__dirname, '__fixtures__', 'sarif-2.1.0.json'), 'utf8')) as object);
})();

describe('reports: since the previous scan', () => {
  it('HTML says N new, N fixed and lists which, escaped; no section for a first scan', () => {
    const html = renderHtml(result, changes);
    const section = html.slice(html.indexOf('<section id="since-previous">'), html.indexOf('</section>', html.indexOf('<section id="since-previous">')));
    expect(section).toContain('<h2>Since the previous scan</h2>');
    expect(section).toContain('2 new, 1 fixed');
    expect(section).toContain('20 Nov 2026, 10:00 UTC');
    expect(section).toContain('Old hole &amp; gone');
    expect(section).toContain(sample.findings[1]!.title);
    expect(section).toContain('&lt;img src=x onerror=alert(1)&gt; title');
    expect(section).not.toContain('<img');
    expect(section).not.toContain('<script');
    // Right after the overview, before the findings: the first thing a reader of a re-scan looks for.
    expect(html.indexOf('id="since-previous"')).toBeLessThan(html.indexOf('<h2>Summary</h2>'));
    expect(renderHtml(result)).not.toContain('since-previous');
    expect(renderHtml(result, { ...changes, added: [], fixed: [] })).toContain('0 new, 0 fixed');
  });

  it('JSON carries sincePrevious with the counts and fingerprints, only when known', () => {
    const parsed = JSON.parse(renderJson(result, changes)) as { sincePrevious: ReturnType<typeof changesJson>; findings: unknown[] };
    expect(parsed.sincePrevious).toEqual({
      previousFinishedAt: changes.previousFinishedAt,
      new: 2,
      fixed: 1,
      newFingerprints: [hostile.fingerprint, sample.findings[1]!.fingerprint],
      fixedFingerprints: [gone.fingerprint],
    });
    expect(parsed.findings).toHaveLength(result.findings.length);
    expect(JSON.parse(renderJson(result))).not.toHaveProperty('sincePrevious');
  });

  it('SARIF marks each result new or unchanged against the previous scan, and stays valid', () => {
    const log = JSON.parse(renderSarif(result, changes)) as { runs: Array<{ results: Array<{ baselineState?: string; partialFingerprints: Record<string, string> }> }> };
    expect(validateSarif(log), JSON.stringify(validateSarif.errors?.slice(0, 3))).toBe(true);
    const states = new Map(log.runs[0]!.results.map((r) => [r.partialFingerprints['vibeevalFingerprint/v1'], r.baselineState]));
    expect(states.get(hostile.fingerprint)).toBe('new');
    expect(states.get(sample.findings[1]!.fingerprint)).toBe('new');
    expect(states.get(sample.findings[2]!.fingerprint)).toBe('unchanged');
    const plain = JSON.parse(renderSarif(result)) as typeof log;
    expect(plain.runs[0]!.results.every((r) => r.baselineState === undefined)).toBe(true);
  });

  it("SARIF lists the findings fixed since in the run's property bag, not as results (GitHub would read a result as an open alert)", () => {
    type Result = { baselineState?: string; partialFingerprints: Record<string, string> };
    type Fixed = { ruleId: string; title: string; url: string; fingerprint: string };
    const log = JSON.parse(renderSarif(result, changes)) as { runs: Array<{ results: Result[]; properties: { fixedSincePreviousScan?: Fixed[] } }> };
    expect(validateSarif(log), JSON.stringify(validateSarif.errors?.slice(0, 3))).toBe(true);
    const run = log.runs[0]!;
    expect(run.results).toHaveLength(result.findings.length);
    expect(run.results.every((r) => r.baselineState === 'new' || r.baselineState === 'unchanged')).toBe(true);
    expect(run.results.some((r) => r.partialFingerprints['vibeevalFingerprint/v1'] === gone.fingerprint)).toBe(false);
    expect(run.properties.fixedSincePreviousScan).toEqual([{ ruleId: 'exposed-git-directory', title: gone.title, url: gone.url, fingerprint: gone.fingerprint }]);
    const plain = JSON.parse(renderSarif(result)) as typeof log;
    expect(plain.runs[0]!.properties.fixedSincePreviousScan).toBeUndefined();
  });

  it("CSV adds a last 'change' column (new, unchanged) and the findings fixed since as rows marked fixed", () => {
    const rows = parseCsv(renderCsv(result, changes));
    expect(rows[0]).toEqual(['# Since the previous scan (20 Nov 2026, 10:00 UTC): 2 new, 1 fixed']);
    const header = rows[1]!;
    expect(header.at(-1)).toBe('change');
    const byFingerprint = new Map(rows.slice(2).map((row) => [row[9], row.at(-1)]));
    expect(byFingerprint.get(hostile.fingerprint)).toBe('new');
    expect(byFingerprint.get(sample.findings[1]!.fingerprint)).toBe('new');
    expect(byFingerprint.get(sample.findings[2]!.fingerprint)).toBe('unchanged');
    expect(rows.at(-1)![1]).toBe('Old hole & gone');
    expect(rows.at(-1)!.at(-1)).toBe('fixed');
    expect(rows.slice(2)).toHaveLength(result.findings.length + 1);
    // A first scan: nothing to compare with, the column stays empty and no row is added.
    const first = parseCsv(renderCsv(result));
    expect(first.slice(1).every((row) => row.at(-1) === '')).toBe(true);
    expect(first).toHaveLength(result.findings.length + 1);
  });
});
