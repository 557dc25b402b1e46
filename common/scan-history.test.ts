import { describe, expect, it } from 'vitest';
import { changeHeadline, changeSummary, scanDiffQuerySchema, scanHistoryQuerySchema } from './scan-history';

describe('scan history texts', () => {
  it("lead a re-scan's notice with what is new, and say nothing for a first scan", () => {
    expect(changeHeadline({ new: 2, fixed: 0 })).toBe('2 new findings since the last scan');
    expect(changeHeadline({ new: 1, fixed: 3 })).toBe('1 new finding since the last scan (3 fixed)');
    expect(changeHeadline({ new: 0, fixed: 1 })).toBe('No new findings since the last scan (1 fixed)');
    expect(changeHeadline({ new: 0, fixed: 0 })).toBe('No new findings since the last scan');
    expect(changeHeadline({ new: 1200, fixed: 0 })).toBe('1,200 new findings since the last scan');
    expect(changeHeadline(null)).toBeNull();
  });

  it("say a report's 'N new, N fixed'", () => {
    expect(changeSummary({ new: 2, fixed: 1 })).toBe('2 new, 1 fixed');
    expect(changeSummary({ new: 0, fixed: 0 })).toBe('0 new, 0 fixed');
  });
});

describe('scan history queries', () => {
  const first = (result: { success: boolean; error?: { issues: { message: string }[] } }) => (result.success ? null : result.error!.issues[0]!.message);
  it('take two scan ids, different ones, and nothing else', () => {
    const a = '11111111-1111-4111-8111-111111111111';
    const b = '22222222-2222-4222-8222-222222222222';
    expect(scanDiffQuerySchema.parse({ from: a, to: b })).toEqual({ from: a, to: b });
    expect(scanDiffQuerySchema.parse({})).toEqual({});
    expect(first(scanDiffQuerySchema.safeParse({ from: 'x', to: b }))).toBe('from: must be a scan id');
    expect(first(scanDiffQuerySchema.safeParse({ to: 'x' }))).toBe('to: must be a scan id');
    expect(first(scanDiffQuerySchema.safeParse({ from: a, to: a }))).toBe('from and to must be two different scans');
    expect(scanDiffQuerySchema.safeParse({ to: b, extra: '1' }).success).toBe(false);
  });

  it('page the history: 20 by default, at most 100', () => {
    expect(scanHistoryQuerySchema.parse({})).toEqual({ limit: 20 });
    expect(first(scanHistoryQuerySchema.safeParse({ limit: '101' }))).toBe('limit: cannot exceed 100');
  });
});
