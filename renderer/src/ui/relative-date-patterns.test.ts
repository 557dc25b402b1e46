import { format } from 'date-fns';
import { describe, expect, it } from 'vitest';
import { formatEventTime, formatLongDate, formatRelativeDate } from './relative-date';

describe('the written-out date patterns', () => {
  it("match date-fns's format for every month, both halves of the day and single-digit days", () => {
    const now = new Date(2031, 0, 1);
    for (let m = 0; m < 12; m++) {
      for (const [day, hour, minute] of [
        [1, 0, 0],
        [9, 11, 59],
        [28, 12, 5],
        [15, 23, 30],
      ] as const) {
        const date = new Date(2025, m, day, hour, minute);
        expect(formatRelativeDate(date, now)).toBe(format(date, 'MMM dd, yyyy'));
        expect(formatLongDate(date)).toBe(format(date, 'MMMM d, yyyy'));
        expect(formatEventTime(date)).toBe(format(date, 'MMM d, h:mm a'));
      }
    }
  });
});
