import { describe, expect, it } from 'vitest';
import { findingKind, findingTally, SEVERITIES, tallyText } from './scan';

describe('findingTally', () => {
  it('splits findings as the public API does: critical, high and medium are issues, low are warnings, info neither', () => {
    expect(SEVERITIES.map(findingKind)).toEqual(['issue', 'issue', 'issue', 'warning', null]);
    expect(findingTally({ critical: 1, high: 1, medium: 2, low: 6, info: 3 })).toEqual({ issues: 4, warnings: 6 });
    expect(findingTally({})).toEqual({ issues: 0, warnings: 0 });
  });

  it('says the tally in words, singular for one', () => {
    expect(tallyText({ issues: 4, warnings: 6 })).toBe('4 issues, 6 warnings');
    expect(tallyText({ issues: 1, warnings: 1 })).toBe('1 issue, 1 warning');
    expect(tallyText({ issues: 0, warnings: 0 })).toBe('No issues');
    expect(tallyText({ issues: 0, warnings: 2 })).toBe('No issues, 2 warnings');
  });
});
