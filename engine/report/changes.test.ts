import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { changesJson, type ReportChanges } from './changes';
import { renderHtml } from './html';
import { renderJson } from './json';
import { renderSarif } from './sarif';
import { hostileFinding, loadSampleResult } from './__fixtures__/load';

// What changed since the previous scan, in each report format: HTML's 'Since the previous scan' (N new, N fixed,
// which, escaped like the page), JSON's `sincePrevious`, SARIF's baselineState (still a valid SARIF 2.1.0 log).

const sample = loadSampleResult();
const hostile = hostileFinding({ fingerprint: 'feedfacefeedface' });
const result = { ...sample, findings: [...sample.findings, hostile] };
const gone = { ...sample.findings[0]!, fingerprint: 'c0ffeec0ffeec0ff', title: 'Old hole & gone' };
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

  it("SARIF marks each result new or unchanged against the previous scan, and stays valid", () => {
    const log = JSON.parse(renderSarif(result, changes)) as { runs: Array<{ results: Array<{ baselineState?: string; partialFingerprints: Record<string, string> }> }> };
    expect(validateSarif(log), JSON.stringify(validateSarif.errors?.slice(0, 3))).toBe(true);
    const states = new Map(log.runs[0]!.results.map((r) => [r.partialFingerprints['vibeevalFingerprint/v1'], r.baselineState]));
    expect(states.get(hostile.fingerprint)).toBe('new');
    expect(states.get(sample.findings[1]!.fingerprint)).toBe('new');
    expect(states.get(sample.findings[2]!.fingerprint)).toBe('unchanged');
    const plain = JSON.parse(renderSarif(result)) as typeof log;
    expect(plain.runs[0]!.results.every((r) => r.baselineState === undefined)).toBe(true);
  });
});
