import { describe, expect, it } from 'vitest';
import { scanResultSchema } from '../../common/scan';
import { loadSampleResult, sampleCoverage } from './__fixtures__/load';
import { renderJson } from './json';

describe('renderJson', () => {
  it('round-trips through scanResultSchema unchanged, pretty-printed', () => {
    const result = loadSampleResult();
    const json = renderJson(result);
    expect(json).toMatch(/^\{\n {2}"schemaVersion": 1,/);
    expect(json.endsWith('}\n')).toBe(true);
    expect(scanResultSchema.parse(JSON.parse(json))).toEqual(result);
  });

  it('carries the coverage as recorded', () => {
    const result = { ...loadSampleResult(), coverage: sampleCoverage() };
    const parsed = scanResultSchema.parse(JSON.parse(renderJson(result)));
    expect(parsed.coverage).toEqual(sampleCoverage());
    expect(parsed.coverage?.backends?.items[0]).toMatchObject({ kind: 'supabase', checked: false });
  });
});
