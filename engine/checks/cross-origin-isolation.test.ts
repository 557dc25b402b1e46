import { describe, expect, it } from 'vitest';
import { makeSite } from '../testing/site';
import { crossOriginIsolation } from './cross-origin-isolation';

const URL = 'https://app.example.com/';
const run = (headers: Record<string, string>) => crossOriginIsolation.run(makeSite({ root: { url: URL, headers, body: '<p>' } }));

describe('cross-origin-isolation', () => {
  it('passes with both headers', () => {
    expect(run({ 'cross-origin-resource-policy': 'same-origin', 'cross-origin-opener-policy': 'same-origin' })).toEqual([]);
  });

  it('reports each missing header', () => {
    expect(run({}).map((finding) => finding.key)).toEqual(['corp', 'coop']);
    expect(run({ 'cross-origin-opener-policy': 'same-origin' }).map((finding) => finding.key)).toEqual(['corp']);
  });

  it('does not apply to a non-HTML start page', () => {
    expect(crossOriginIsolation.appliesTo!(makeSite({ root: { url: URL, headers: { 'content-type': 'application/json' }, body: '{}' } }))).toBe(false);
  });
});
