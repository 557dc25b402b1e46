import { differenceInMinutes, format, isValid, parseISO } from 'date-fns';

/** What every date display shows for a value it cannot read (spec section 8). */
export const UNKNOWN_TIME = 'Unknown time';

type DateInput = string | number | Date | null | undefined;

function toDate(value: DateInput): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = typeof value === 'string' ? parseISO(value) : new Date(value);
  return isValid(date) ? date : null;
}

const ago = (count: number, unit: string) => `${count} ${unit}${count === 1 ? '' : 's'} ago`;

/**
 * Spec section 9: minutes under 1 hour, hours under 1 day, days under 7 days ('N unit ago'), otherwise
 * 'MMM dd, yyyy'. A date slightly in the future (clock skew between server and client) counts as now.
 */
export function formatRelativeDate(value: DateInput, now: Date = new Date()): string {
  const date = toDate(value);
  if (!date) return UNKNOWN_TIME;
  const minutes = Math.max(0, differenceInMinutes(now, date));
  if (minutes < 60) return ago(minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return ago(hours, 'hour');
  const days = Math.floor(hours / 24);
  if (days < 7) return ago(days, 'day');
  return format(date, 'MMM dd, yyyy');
}

/** The long date of the project detail page, e.g. 'April 29, 2025'. */
export function formatLongDate(value: DateInput): string {
  const date = toDate(value);
  return date ? format(date, 'MMMM d, yyyy') : UNKNOWN_TIME;
}

/** Event times (spec section 9): 'MMM d, h:mm a', e.g. 'Apr 29, 3:05 PM'. */
export function formatEventTime(value: DateInput): string {
  const date = toDate(value);
  return date ? format(date, 'MMM d, h:mm a') : UNKNOWN_TIME;
}
