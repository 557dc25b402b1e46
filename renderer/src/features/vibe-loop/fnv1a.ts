// FNV-1a (32-bit) over the UTF-8 bytes of a string: the change detector of the monitoring script, shown live on
// /vibe-loop. Not a cryptographic hash: it only says "this page's content is (almost certainly) different".

const OFFSET_BASIS = 0x811c9dc5;
const PRIME = 0x01000193;

const encoder = new TextEncoder();

/** FNV-1a 32-bit hash of the string's UTF-8 encoding, as an unsigned integer. */
export function fnv1a32(input: string): number {
  let hash = OFFSET_BASIS;
  for (const byte of encoder.encode(input)) {
    hash ^= byte;
    // Math.imul keeps the multiplication in 32 bits (a plain * loses precision past 2^53).
    hash = Math.imul(hash, PRIME);
  }
  return hash >>> 0;
}

/** Collapses every run of whitespace to one space and trims the ends, so re-indenting a page is no change. */
export function normalizeContent(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** A hash as eight lowercase hex digits with a 0x prefix (0x811c9dc5). */
export function formatHash(hash: number): string {
  return `0x${(hash >>> 0).toString(16).padStart(8, '0')}`;
}

/** The hash the monitoring script keeps for a page: FNV-1a of its whitespace-normalised text. */
export const contentHash = (text: string) => fnv1a32(normalizeContent(text));
