import { describe, expect, it } from 'vitest';
import { makeSite } from '../testing/site';
import { xContentTypeOptions } from './x-content-type-options';

const URL = 'https://app.example.com/';

describe('x-content-type-options', () => {
  it.each([['nosniff'], ['NoSniff ']])('passes: %s', (value) => {
    expect(xContentTypeOptions.run(makeSite({ root: { url: URL, headers: { 'x-content-type-options': value }, body: '' } }))).toEqual([]);
  });

  it('flags a missing header once for all pages', () => {
    const findings = xContentTypeOptions.run(makeSite({ root: { url: URL, body: '' }, pages: [{ url: `${URL}a`, body: '' }] }));
    expect(findings).toMatchObject([{ url: URL }]);
  });

  it('flags a value other than nosniff', () => {
    const findings = xContentTypeOptions.run(makeSite({ root: { url: URL, headers: { 'x-content-type-options': 'nosniff, nosniff' }, body: '' } }));
    expect(findings).toMatchObject([{ evidence: { match: 'nosniff, nosniff' } }]);
  });
});
