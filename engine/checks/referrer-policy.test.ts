import { describe, expect, it } from 'vitest';
import { makeSite } from '../testing/site';
import { referrerPolicy } from './referrer-policy';

const URL = 'https://app.example.com/';
const run = (headers: Record<string, string>, body = '<p>') => referrerPolicy.run(makeSite({ root: { url: URL, headers, body } }));

describe('referrer-policy', () => {
  it.each([
    [{ 'referrer-policy': 'strict-origin-when-cross-origin' }, '<p>'],
    [{ 'referrer-policy': 'no-referrer, unknown-future-value' }, '<p>'],
    [{}, '<meta name="referrer" content="same-origin">'],
    [{ 'referrer-policy': 'unsafe-url' }, '<meta name="referrer" content="no-referrer">'],
  ])('passes: %o %s', (headers, body) => {
    expect(run(headers, body)).toEqual([]);
  });

  it('flags missing, invalid and leaky policies', () => {
    expect(run({})).toMatchObject([{ key: 'missing' }]);
    expect(run({ 'referrer-policy': 'sometimes' })).toMatchObject([{ key: 'invalid' }]);
    expect(run({ 'referrer-policy': 'no-referrer-when-downgrade' })).toMatchObject([{ key: 'unsafe', evidence: { match: 'no-referrer-when-downgrade' } }]);
    expect(run({}, '<meta name="referrer" content="unsafe-url">')).toMatchObject([{ key: 'unsafe' }]);
  });
});
