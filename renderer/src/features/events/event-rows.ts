import { DEFAULT_EVENT_SOURCES, type EventSource, type ProjectEvent } from '@common/projects';
import { eventLabel } from '../../ui/event-label';

/** The spec's event time, 'MMM d, h:mm a', or 'Unknown time' (one formatter for the whole app). */
export { formatEventTime } from '../../ui/relative-date';

/** GET /events/recent?limit=30 (spec section 9: 30 fetched). */
export const RECENT_EVENTS_LIMIT = 30;

/** The event's description (extra.description), or '' when it has none. */
export function eventDescription(event: ProjectEvent): string {
  const description = event.extra?.description;
  return typeof description === 'string' ? description : '';
}

/** How an event kind reads in its badge (one wording for every list of events). */
export { eventLabel };

/**
 * The events whose name, URL or description contains `query`, ignoring case (and surrounding spaces).
 * An empty query keeps every event.
 */
export function filterEvents(events: readonly ProjectEvent[], query: string): ProjectEvent[] {
  const needle = query.trim().toLowerCase();
  if (!needle) return [...events];
  return events.filter((event) => [event.event_name, eventLabel(event.event_name), event.url, eventDescription(event)].some((text) => text.toLowerCase().includes(needle)));
}

/** Puts a live event on top of the list: newest first, no duplicate ids, at most `limit` rows. */
export function prependEvent(events: readonly ProjectEvent[] | undefined, event: ProjectEvent, limit = RECENT_EVENTS_LIMIT): ProjectEvent[] {
  const rest = (events ?? []).filter((existing) => existing.id !== event.id);
  return [event, ...rest].slice(0, limit);
}

/** The Events page's filters, as sent in the query string; an empty value means no filter. */
export interface EventFilterValues {
  type: string;
  project: string;
  source: string;
  from: string;
  to: string;
}

export const NO_EVENT_FILTERS: EventFilterValues = { type: '', project: '', source: '', from: '', to: '' };

/** The query parameters of the filters that are set (an empty object when none is). */
export function filterParams(filters: EventFilterValues): Record<string, string> {
  return Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== ''));
}

/**
 * Whether a live event belongs in the list the filters ask for (the server applies the same rules to pages):
 * its source (by default anything but the scanner's own requests), type, project and time range (bare dates, UTC).
 */
export function matchesFilters(event: ProjectEvent, projectId: string | null, filters: EventFilterValues): boolean {
  const source: EventSource = event.source ?? 'site';
  if (filters.source === '' ? !DEFAULT_EVENT_SOURCES.includes(source) : filters.source !== 'all' && filters.source !== source) return false;
  if (filters.type && event.event_name !== filters.type) return false;
  if (filters.project && projectId !== filters.project) return false;
  const day = event.timestamp.slice(0, 10);
  if (filters.from && day < filters.from) return false;
  return !(filters.to && day > filters.to);
}
