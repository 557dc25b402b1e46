import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../engine/checks/index';
import { checkCount } from '../../scripts/check-count.mjs';

// The landing, pricing and press pages say how many checks the scanner runs: the number the build reads from the
// registry's text (scripts/check-count.mjs) must be the registry's own.
describe('checkCount', () => {
  it("is the number of checks the engine's registry holds", () => {
    expect(checkCount(resolve(import.meta.dirname, '..', '..'))).toBe(CHECKS.length);
  });
});
