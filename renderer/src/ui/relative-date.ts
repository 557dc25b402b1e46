import { plural } from '@common/plural';

// The three fixed English patterns the spec asks for, written out, and the API's ISO 8601 timestamps read by Date:
// date-fns carried every pattern and its locale (6 KB compressed) into the dashboard's first load for these.
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const pad = (value: number, width = 2) => String(value).padStart(width, '0');
const month = (date: Date) => MONTHS[date.getMonth()]!;
const year = (date: Date) => pad(date.getFullYear(), 4);

/** What every date display shows for a value it cannot read (spec section 8). */
export const UNKNOWN_TIME = 'Unknown time';

type DateInput = string | number | Date | null | undefined;

function toDate(value: DateInput): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

const ago = (count: number, unit: string) => `${plural(count, unit)} ago`;

/**
 * Spec section 9: minutes under 1 hour, hours under 1 day, days under 7 days ('N unit ago'), otherwise
 * 'MMM dd, yyyy'; under a minute reads 'just now'. A date slightly in the future (clock skew between server and
 * client) counts as now.
 */
export function formatRelativeDate(value: DateInput, now: Date = new Date()): string {
  const date = toDate(value);
  if (!date) return UNKNOWN_TIME;
  const minutes = Math.max(0, Math.trunc((now.getTime() - date.getTime()) / 60_000));
  if (minutes === 0) return 'just now';
  if (minutes < 60) return ago(minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return ago(hours, 'hour');
  const days = Math.floor(hours / 24);
  if (days < 7) return ago(days, 'day');
  return `${month(date).slice(0, 3)} ${pad(date.getDate())}, ${year(date)}`; // MMM dd, yyyy
}

/** The long date of the project detail page, e.g. 'April 29, 2025'. */
export function formatLongDate(value: DateInput): string {
  const date = toDate(value);
  return date ? `${month(date)} ${date.getDate()}, ${year(date)}` : UNKNOWN_TIME; // MMMM d, yyyy
}

/** Event times (spec section 9): 'MMM d, h:mm a', e.g. 'Apr 29, 3:05 PM'. */
export function formatEventTime(value: DateInput): string {
  const date = toDate(value);
  if (!date) return UNKNOWN_TIME;
  const hours = date.getHours();
  // MMM d, h:mm a
  return `${month(date).slice(0, 3)} ${date.getDate()}, ${hours % 12 || 12}:${pad(date.getMinutes())} ${hours < 12 ? 'AM' : 'PM'}`;
}
