import type { ProjectEvent } from '@common/projects';
import { describe, expect, it } from 'vitest';
import { NO_EVENT_FILTERS, eventDescription, eventLabel, filterEvents, filterParams, formatEventTime, matchesFilters, prependEvent } from './event-rows';

const event = (id: string, event_name: string, url: string, description?: string): ProjectEvent => ({
  id,
  event_name,
  url,
  timestamp: '2025-03-04T15:07:00',
  extra: description === undefined ? null : { description },
});

const events = [
  event('1', 'page_view', 'https://shop.example.com/', 'Home page loaded'),
  event('2', 'api_call', 'https://shop.example.com/api/cart', 'GET /api/cart returned 200'),
  event('3', 'form_submit', 'https://blog.example.org/contact'),
  event('4', 'error', 'https://blog.example.org/', 'Uncaught TypeError in CHECKOUT'),
];

describe('formatEventTime', () => {
  it("formats as 'MMM d, h:mm a'", () => {
    expect(formatEventTime('2025-03-04T15:07:00')).toBe('Mar 4, 3:07 PM');
    expect(formatEventTime('2025-12-25T00:30:00')).toBe('Dec 25, 12:30 AM');
  });

  it('reads ISO timestamps with an offset (shown in local time)', () => {
    const iso = new Date(2025, 0, 9, 9, 5).toISOString();
    expect(formatEventTime(iso)).toBe('Jan 9, 9:05 AM');
  });

  it.each(['', 'yesterday', 'not a date', '2025-13-45T99:00:00', null, undefined])("shows 'Unknown time' for %s", (value) => {
    expect(formatEventTime(value)).toBe('Unknown time');
  });
});

describe('filterEvents', () => {
  it('keeps everything for an empty or blank query', () => {
    expect(filterEvents(events, '')).toHaveLength(4);
    expect(filterEvents(events, '   ')).toHaveLength(4);
  });

  it('matches the event name, case-insensitively', () => {
    expect(filterEvents(events, 'API_CALL').map((e) => e.id)).toEqual(['2']);
    expect(filterEvents(events, 'page view').map((e) => e.id)).toEqual(['1']);
    expect(filterEvents(events, 'api call').map((e) => e.id)).toEqual(['2']);
  });

  it('matches the URL', () => {
    expect(filterEvents(events, 'blog.EXAMPLE').map((e) => e.id)).toEqual(['3', '4']);
  });

  it('matches the description', () => {
    expect(filterEvents(events, 'checkout').map((e) => e.id)).toEqual(['4']);
    expect(filterEvents(events, 'returned 200').map((e) => e.id)).toEqual(['2']);
  });

  it('returns nothing when nothing matches', () => {
    expect(filterEvents(events, 'nowhere')).toEqual([]);
  });
});

describe('helpers', () => {
  it('labels event kinds', () => {
    expect(eventLabel('page_view')).toBe('Page View');
    expect(eventLabel('error')).toBe('Error');
    expect(eventLabel('api_call')).toBe('API Call');
    expect(eventLabel('custom-thing')).toBe('Custom Thing');
  });

  it('reads the description from extra', () => {
    expect(eventDescription(events[0]!)).toBe('Home page loaded');
    expect(eventDescription(events[2]!)).toBe('');
  });

  it('prepends live events without duplicates, capped', () => {
    const next = prependEvent(events, event('5', 'button_click', 'https://x.test/'), 3);
    expect(next.map((e) => e.id)).toEqual(['5', '1', '2']);
    expect(prependEvent(events, events[1]!).map((e) => e.id)).toEqual(['2', '1', '3', '4']);
    expect(prependEvent(undefined, events[0]!)).toEqual([events[0]]);
  });
});

describe('matchesFilters', () => {
  const live = (source: ProjectEvent['source'], name = 'page_view', timestamp = '2026-11-28T10:00:00.000Z'): ProjectEvent => ({
    id: 'x',
    event_name: name,
    url: 'https://shop.example.com/',
    timestamp,
    extra: null,
    source,
  });

  it("keeps the scanner's own requests out of the default view, as the server does", () => {
    expect(matchesFilters(live('scan'), 'p1', NO_EVENT_FILTERS)).toBe(false);
    expect(matchesFilters(live('site'), 'p1', NO_EVENT_FILTERS)).toBe(true);
    expect(matchesFilters(live('scenario'), 'p1', NO_EVENT_FILTERS)).toBe(true);
    expect(matchesFilters(live(undefined), null, NO_EVENT_FILTERS)).toBe(true);
    expect(matchesFilters(live('scan'), 'p1', { ...NO_EVENT_FILTERS, source: 'scan' })).toBe(true);
    expect(matchesFilters(live('site'), 'p1', { ...NO_EVENT_FILTERS, source: 'scan' })).toBe(false);
    expect(matchesFilters(live('scan'), 'p1', { ...NO_EVENT_FILTERS, source: 'all' })).toBe(true);
  });

  it('checks type, project and the date range (whole days)', () => {
    const all = { ...NO_EVENT_FILTERS, source: 'all' };
    expect(matchesFilters(live('site', 'error'), 'p1', { ...all, type: 'page_view' })).toBe(false);
    expect(matchesFilters(live('site'), 'p1', { ...all, project: 'p2' })).toBe(false);
    expect(matchesFilters(live('site'), 'p1', { ...all, project: 'p1', from: '2026-11-28', to: '2026-11-28' })).toBe(true);
    expect(matchesFilters(live('site'), 'p1', { ...all, from: '2026-11-29' })).toBe(false);
    expect(matchesFilters(live('site'), 'p1', { ...all, to: '2026-11-27' })).toBe(false);
  });

  it('sends only the filters that are set', () => {
    expect(filterParams(NO_EVENT_FILTERS)).toEqual({});
    expect(filterParams({ ...NO_EVENT_FILTERS, source: 'scan', from: '2026-11-01' })).toEqual({ source: 'scan', from: '2026-11-01' });
  });
});
