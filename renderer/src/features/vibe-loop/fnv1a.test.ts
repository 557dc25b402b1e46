import { describe, expect, it } from 'vitest';
import { contentHash, fnv1a32, formatHash, normalizeContent } from './fnv1a';

/** The textbook definition over explicit bytes, to check the string version's UTF-8 handling against. */
function referenceBytes(bytes: number[]): number {
  let hash = 0x811c9dc5;
  for (const byte of bytes) {
    hash ^= byte;
    hash = Number((BigInt(hash) * 0x01000193n) & 0xffffffffn);
  }
  return hash;
}

describe('fnv1a32', () => {
  it('matches the published FNV-1a 32-bit test vectors', () => {
    expect(fnv1a32('')).toBe(0x811c9dc5);
    expect(fnv1a32('a')).toBe(0xe40c292c);
    expect(fnv1a32('foobar')).toBe(0xbf9cf968);
  });

  it('hashes the UTF-8 bytes, not UTF-16 code units', () => {
    // 'é' is C3 A9 in UTF-8; hashing the single code unit E9 would give 0x6c0b6c44.
    expect(fnv1a32('é')).toBe(referenceBytes([0xc3, 0xa9]));
    expect(fnv1a32('é')).toBe(0x1e9de8c1);
    expect(fnv1a32('é')).not.toBe(referenceBytes([0xe9]));
    // A character outside the BMP (a surrogate pair in JavaScript) is four UTF-8 bytes.
    expect(fnv1a32('😀')).toBe(referenceBytes([0xf0, 0x9f, 0x98, 0x80]));
    expect(fnv1a32('café')).toBe(0xa82b5049);
  });

  it('always returns an unsigned 32-bit integer', () => {
    for (const text of ['', 'a', 'foobar', 'x'.repeat(10_000), '日本語のページ']) {
      const hash = fnv1a32(text);
      expect(Number.isInteger(hash)).toBe(true);
      expect(hash).toBeGreaterThanOrEqual(0);
      expect(hash).toBeLessThanOrEqual(0xffffffff);
    }
  });
});

describe('content hash', () => {
  it('ignores whitespace-only edits and sees real ones', () => {
    expect(normalizeContent('  Hello\n\t  world  ')).toBe('Hello world');
    expect(contentHash('Hello world')).toBe(contentHash('\n  Hello   world\n'));
    expect(contentHash('Hello world')).toBe(0x594d29c7);
    expect(contentHash('Hello world')).not.toBe(contentHash('Hello world!'));
  });

  it('formats hashes as eight hex digits', () => {
    expect(formatHash(0x811c9dc5)).toBe('0x811c9dc5');
    expect(formatHash(0x1)).toBe('0x00000001');
  });
});
