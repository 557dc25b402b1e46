import { ANALYTICS_LIMITS, EVENT_KINDS, type AnalyticsResult } from '../../common/audits';
import type { EventKind, ProjectEvent } from '../../common/projects';

export interface AnalyticsOptions {
  /** Start and end of the period, inclusive (ISO strings or dates). */
  from: string | Date;
  to: string | Date;
  /** The project's URL, shown on the report's cover. */
  target?: string | null;
  /** When the report was made; defaults to `to`, so the function stays pure. */
  generatedAt?: string;
}

const DAY_MS = 86_400_000;

/** The kind an event name stands for: one of EVENT_KINDS (case and '-'/' ' vs '_' ignored), else 'other'. */
export function eventKind(name: string): EventKind {
  const normal = name
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  return (EVENT_KINDS as readonly string[]).includes(normal) ? (normal as EventKind) : 'other';
}

function toTime(value: string | Date, name: string): number {
  const time = value instanceof Date ? value.getTime() : Date.parse(value);
  if (Number.isNaN(time)) throw new RangeError(`analyseEvents: '${String(value)}' is not a valid ${name} date`);
  return time;
}

/**
 * The analytics report over a project's events in [from, to]: counts by kind, the latest errors, top URLs,
 * events per UTC day (at most the last 366 days of the period), first and last event. Pure: same input, same result.
 */
export function analyseEvents(events: readonly ProjectEvent[], options: AnalyticsOptions): AnalyticsResult {
  let from = toTime(options.from, 'from');
  const to = toTime(options.to, 'to');
  if (from > to) throw new RangeError('analyseEvents: from is after to');
  const fromIso = new Date(from).toISOString();
  const toIso = new Date(to).toISOString();

  const byKind = Object.fromEntries(EVENT_KINDS.map((kind) => [kind, 0])) as Record<EventKind, number>;
  const urls = new Map<string, number>();
  const days = new Map<string, { count: number; errors: number }>();
  const errors: Array<{ event: ProjectEvent; time: number }> = [];
  let ignored = 0;
  let total = 0;
  let first: number | null = null;
  let last: number | null = null;

  for (const event of events) {
    const time = Date.parse(event.timestamp);
    if (Number.isNaN(time) || time < from || time > to) {
      ignored++;
      continue;
    }
    total++;
    const kind = eventKind(event.event_name);
    byKind[kind]++;
    urls.set(event.url, (urls.get(event.url) ?? 0) + 1);
    const day = new Date(time).toISOString().slice(0, 10);
    const bucket = days.get(day) ?? { count: 0, errors: 0 };
    bucket.count++;
    if (kind === 'error') {
      bucket.errors++;
      errors.push({ event, time });
    }
    days.set(day, bucket);
    first = first === null ? time : Math.min(first, time);
    last = last === null ? time : Math.max(last, time);
  }

  // The series runs over whole UTC days, empty days included, capped to the period's last 366 days.
  const lastDay = Math.floor(to / DAY_MS) * DAY_MS;
  from = Math.max(Math.floor(from / DAY_MS) * DAY_MS, lastDay - (ANALYTICS_LIMITS.days - 1) * DAY_MS);
  const perDay: AnalyticsResult['perDay'] = [];
  for (let day = from; day <= lastDay; day += DAY_MS) {
    const key = new Date(day).toISOString().slice(0, 10);
    perDay.push({ day: key, count: days.get(key)?.count ?? 0, errors: days.get(key)?.errors ?? 0 });
  }

  errors.sort((a, b) => b.time - a.time || a.event.id.localeCompare(b.event.id));
  const extraText = (value: unknown) => (typeof value === 'string' && value ? value : null);
  const extraStatus = (value: unknown) => (typeof value === 'number' && Number.isInteger(value) ? value : null);

  return {
    kind: 'analytics',
    schemaVersion: 1,
    target: options.target ?? null,
    generatedAt: options.generatedAt ?? toIso,
    from: fromIso,
    to: toIso,
    total,
    ignored,
    byKind,
    errors: errors.slice(0, ANALYTICS_LIMITS.errors).map(({ event, time }) => ({
      id: event.id,
      timestamp: new Date(time).toISOString(),
      url: event.url,
      description: extraText(event.extra?.description),
      status: extraStatus(event.extra?.status),
    })),
    topUrls: [...urls.entries()]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, ANALYTICS_LIMITS.urls)
      .map(([url, count]) => ({ url, count })),
    distinctUrls: urls.size,
    perDay,
    firstEvent: first === null ? null : new Date(first).toISOString(),
    lastEvent: last === null ? null : new Date(last).toISOString(),
    totalIssues: byKind.error,
  };
}
