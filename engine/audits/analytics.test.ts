import { describe, expect, it } from 'vitest';
import { analyticsSchema } from '../../common/audits';
import type { ProjectEvent } from '../../common/projects';
import { analyseEvents, eventKind } from './analytics';

let n = 0;
const event = (event_name: string, timestamp: string, url = 'https://app.example/', extra: ProjectEvent['extra'] = null): ProjectEvent => ({
  id: `e${++n}`,
  event_name,
  url,
  timestamp,
  extra,
});
const period = { from: '2025-11-01T00:00:00.000Z', to: '2025-11-03T23:59:59.999Z' };

describe('eventKind', () => {
  it.each([
    ['page_view', 'page_view'],
    ['Page View', 'page_view'],
    ['form-submit', 'form_submit'],
    ['ERROR', 'error'],
    ['api_call', 'api_call'],
    ['scan_completed', 'other'],
    ['', 'other'],
  ])('%j → %s', (name, kind) => {
    expect(eventKind(name)).toBe(kind);
  });
});

describe('analyseEvents', () => {
  it('is empty but complete for no events', () => {
    const result = analyseEvents([], period);
    expect(analyticsSchema.parse(result)).toEqual(result);
    expect(result).toMatchObject({ total: 0, ignored: 0, totalIssues: 0, firstEvent: null, lastEvent: null, topUrls: [], errors: [], distinctUrls: 0 });
    expect(result.byKind).toEqual({ page_view: 0, form_submit: 0, button_click: 0, error: 0, api_call: 0, other: 0 });
    expect(result.perDay).toEqual([
      { day: '2025-11-01', count: 0, errors: 0 },
      { day: '2025-11-02', count: 0, errors: 0 },
      { day: '2025-11-03', count: 0, errors: 0 },
    ]);
    expect(result.generatedAt).toBe(period.to);
  });

  const events = [
    event('page_view', '2025-11-01T08:00:00Z', 'https://app.example/'),
    event('page_view', '2025-11-01T09:00:00Z', 'https://app.example/'),
    event('button_click', '2025-11-01T09:01:00Z', 'https://app.example/pricing'),
    event('error', '2025-11-02T10:00:00Z', 'https://app.example/checkout', { description: 'Stripe failed', status: 502 }),
    event('error', '2025-11-03T23:59:59Z', 'https://app.example/checkout', { description: 'Timeout' }),
    event('deploy', '2025-11-03T12:00:00Z', 'https://app.example/'),
    event('page_view', '2025-10-31T23:59:59Z'), // before the period
    event('page_view', '2025-11-04T00:00:00Z'), // after it
    event('page_view', 'not a date'),
  ];
  const result = analyseEvents(events, { ...period, target: 'https://app.example/' });

  it.each([
    ['counts events in the period and leaves the rest out', { total: 6, ignored: 3 }],
    ['counts by kind, unknown names as other', { byKind: { page_view: 2, form_submit: 0, button_click: 1, error: 2, api_call: 0, other: 1 } }],
    ['counts errors as issues', { totalIssues: 2 }],
    ['knows the first and last event', { firstEvent: '2025-11-01T08:00:00.000Z', lastEvent: '2025-11-03T23:59:59.000Z' }],
    [
      'ranks URLs by count, then by name',
      {
        topUrls: [
          { url: 'https://app.example/', count: 3 },
          { url: 'https://app.example/checkout', count: 2 },
          { url: 'https://app.example/pricing', count: 1 },
        ],
        distinctUrls: 3,
      },
    ],
  ] as const)('%s', (_name, expected) => {
    expect(result).toMatchObject(expected);
  });

  it('lists errors newest first with their description and status', () => {
    expect(result.errors).toEqual([
      { id: events[4]!.id, timestamp: '2025-11-03T23:59:59.000Z', url: 'https://app.example/checkout', description: 'Timeout', status: null },
      { id: events[3]!.id, timestamp: '2025-11-02T10:00:00.000Z', url: 'https://app.example/checkout', description: 'Stripe failed', status: 502 },
    ]);
  });

  it('has one point per UTC day with its errors', () => {
    expect(result.perDay).toEqual([
      { day: '2025-11-01', count: 3, errors: 0 },
      { day: '2025-11-02', count: 1, errors: 1 },
      { day: '2025-11-03', count: 2, errors: 1 },
    ]);
  });

  it('keeps the latest 20 errors and top 10 URLs, and at most 366 days', () => {
    const many = Array.from({ length: 30 }, (_, i) => event('error', new Date(Date.UTC(2024, 0, 1 + i)).toISOString(), `https://app.example/p${i}`));
    const long = analyseEvents(many, { from: '2023-01-01T00:00:00Z', to: '2024-12-31T00:00:00Z' });
    expect(long.errors).toHaveLength(20);
    expect(long.errors[0]!.url).toBe('https://app.example/p29');
    expect(long.topUrls).toHaveLength(10);
    expect(long.distinctUrls).toBe(30);
    expect(long.perDay).toHaveLength(366);
    expect(long.perDay.at(-1)!.day).toBe('2024-12-31');
    expect(long.totalIssues).toBe(30);
  });

  it('accepts dates and refuses a reversed or invalid period', () => {
    expect(analyseEvents(events, { from: new Date(period.from), to: new Date(period.to) }).total).toBe(6);
    expect(() => analyseEvents(events, { from: period.to, to: period.from })).toThrow(RangeError);
    expect(() => analyseEvents(events, { from: 'yesterday', to: period.to })).toThrow(RangeError);
  });
});
