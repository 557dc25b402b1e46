import { describe, expect, it } from 'vitest';
import { scanResultSchema } from '../../common/scan';
import { loadSampleResult } from './__fixtures__/load';
import { renderJson } from './json';

describe('renderJson', () => {
  it('round-trips through scanResultSchema unchanged, pretty-printed', () => {
    const result = loadSampleResult();
    const json = renderJson(result);
    expect(json).toMatch(/^\{\n {2}"schemaVersion": 1,/);
    expect(json.endsWith('}\n')).toBe(true);
    expect(scanResultSchema.parse(JSON.parse(json))).toEqual(result);
  });
});
