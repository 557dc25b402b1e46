import { describe, expect, it } from 'vitest';
import { scrubText } from './log-scrub';
import { cpuTimed } from '../engine/testing/cpu-time';

const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyIn0.c2lnbmF0dXJlLXZhbHVl';

describe('scrubText', () => {
  it('blanks a JWT wherever it appears, glued to other word characters or not', () => {
    for (const text of [`Bearer: ${JWT}`, `token=${JWT}`, `"%22${JWT}"`, `x_${JWT} done`]) {
      const out = scrubText(text);
      expect(out).toContain('[redacted jwt]');
      expect(out).not.toContain('eyJzdWIi');
    }
    expect(scrubText('version 1.2.3 and a.b.c stay')).toBe('version 1.2.3 and a.b.c stay');
  });

  it('stays linear on long runs built to make the patterns backtrack', () => {
    for (const text of ['eyJ'.repeat(40_000), `params: ${'\n'.repeat(100_000)}x`, `${'a'.repeat(100_000)}.`]) {
      expect(cpuTimed(() => scrubText(text)).ms).toBeLessThan(200);
    }
  });
});
