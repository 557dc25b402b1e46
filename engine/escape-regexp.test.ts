import { describe, expect, it } from 'vitest';
import { escapeRegExp } from './escape-regexp';

describe('escapeRegExp', () => {
  it('matches the text literally, every special character included', () => {
    const text = 'a.b*c+d?e^f$g{h}i(j)k|l[m]n\\o/p-q';
    const pattern = new RegExp(`^${escapeRegExp(text)}$`);
    expect(pattern.test(text)).toBe(true);
    expect(pattern.test(text.replace('.', 'x'))).toBe(false);
  });
});
