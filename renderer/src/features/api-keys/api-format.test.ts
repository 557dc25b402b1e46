import { describe, expect, it } from 'vitest';
import { PLAN_ROWS, checkKeyName, formatLimit, maskedKey, usageView } from './api-format';

describe('checkKeyName', () => {
  it('trims a name', () => {
    expect(checkKeyName('  CI deploys ')).toEqual({ ok: true, name: 'CI deploys' });
  });
  it.each(['', '   '])('refuses %j with the spec texts', (name) => {
    expect(checkKeyName(name)).toEqual({ ok: false, title: 'Name required', description: 'Please provide a name for your API key' });
  });
  it('refuses a name over 100 characters', () => {
    const result = checkKeyName('x'.repeat(101));
    expect(result.ok).toBe(false);
    expect(result.ok === false && result.description).toContain('100');
  });
});

describe('plans and usage', () => {
  it('lists the plans with their daily limits', () => {
    expect(PLAN_ROWS.map((row) => `${row.name}: ${row.limit}`)).toEqual([
      'Free: 100 requests / day',
      'Pro: 1,000 requests / day',
      'Team: 5,000 requests / day',
      'Enterprise: Custom',
    ]);
    expect(formatLimit(null)).toBe('Custom');
  });
  it('measures today against the limit', () => {
    expect(usageView({ plan: 'free', used_today: 25, limit: 100, resets_at: '' })).toEqual({ percent: 25, label: '25 of 100 requests today', exhausted: false });
    expect(usageView({ plan: 'pro', used_today: 1200, limit: 1000, resets_at: '' })).toEqual({ percent: 100, label: '1,200 of 1,000 requests today', exhausted: true });
    expect(usageView({ plan: 'enterprise', used_today: 3, limit: null, resets_at: '' })).toEqual({ percent: null, label: '3 requests today (custom limit)', exhausted: false });
    expect(usageView({ plan: null, used_today: 0, limit: null, resets_at: '' })).toEqual({ percent: null, label: '0 requests today', exhausted: false });
    expect(usageView({ plan: null, used_today: 1, limit: null, resets_at: '' })).toEqual({ percent: null, label: '1 request today', exhausted: false });
    expect(usageView({ plan: 'enterprise', used_today: 1, limit: null, resets_at: '' })).toEqual({ percent: null, label: '1 request today (custom limit)', exhausted: false });
  });
  it('masks a key to its prefix and last four', () => {
    expect(maskedKey('a1B2')).toBe('vb_live_…a1B2');
  });
});
