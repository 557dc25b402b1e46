import { describe, expect, it } from 'vitest';
import { formatEventTime, formatLongDate, formatRelativeDate } from './relative-date';

const now = new Date('2025-05-20T12:00:00Z');
const before = (ms: number) => new Date(now.getTime() - ms).toISOString();
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('formatRelativeDate', () => {
  it.each([
    [0, 'just now'],
    [59_000, 'just now'],
    [MINUTE, '1 minute ago'],
    [5 * MINUTE, '5 minutes ago'],
    [59 * MINUTE, '59 minutes ago'],
    [HOUR, '1 hour ago'],
    [23 * HOUR + 59 * MINUTE, '23 hours ago'],
    [DAY, '1 day ago'],
    [6 * DAY + 23 * HOUR, '6 days ago'],
  ])('%i ms ago reads %s', (ms, expected) => {
    expect(formatRelativeDate(before(ms), now)).toBe(expected);
  });

  it('shows MMM dd, yyyy from 7 days on', () => {
    expect(formatRelativeDate('2025-05-13T11:00:00Z', now)).toBe('May 13, 2025');
    expect(formatRelativeDate('2024-01-02T12:00:00Z', now)).toBe('Jan 02, 2024');
  });

  it('treats a date in the near future as now', () => {
    expect(formatRelativeDate(new Date(now.getTime() + 30_000), now)).toBe('just now');
  });

  it.each([['not a date'], [''], [null], [undefined], ['2025-13-45']])('%s is Unknown time', (value) => {
    expect(formatRelativeDate(value, now)).toBe('Unknown time');
  });
});

describe('formatLongDate and formatEventTime', () => {
  it('formats a valid date', () => {
    // Local time: build the date from parts so the test does not depend on the machine's zone.
    const date = new Date(2025, 3, 29, 15, 5);
    expect(formatLongDate(date)).toBe('April 29, 2025');
    expect(formatEventTime(date)).toBe('Apr 29, 3:05 PM');
  });

  it('reads Unknown time for garbage', () => {
    expect(formatLongDate('garbage')).toBe('Unknown time');
    expect(formatEventTime(null)).toBe('Unknown time');
  });
});
