import { describe, expect, it } from 'vitest';
import type { ScanProgress } from '../../common/scan';
import type { Exchange } from '../../engine/types';
import type { NewEvent, ScanAttempt } from '../events/service';
import { exchangeKind, ScanEventBatcher } from './scan-events';
import { ProgressPublisher, type ProgressSinks } from './scan-progress';

const exchange = (url: string, over: Partial<Exchange> = {}): Exchange => ({
  method: 'GET',
  url,
  requestHeaders: {},
  finalUrl: url,
  redirects: [],
  status: 200,
  headers: [],
  contentType: 'text/html',
  body: '',
  bodyBytes: 10,
  truncated: false,
  timingMs: 5,
  ...over,
});

describe('ScanEventBatcher', () => {
  const owner: ScanAttempt = { scanId: 's1', attempt: 2 };
  const base = { workspaceId: 'u1', userId: 'u1', projectId: 'p1', scanId: 's1' };

  it('records batches for its attempt, lists at most `max` requests and counts the rest', async () => {
    const calls: { owner: ScanAttempt; batch: NewEvent[] }[] = [];
    const events = { recordForAttempt: async (o: ScanAttempt, batch: NewEvent[]) => (calls.push({ owner: o, batch }), batch.length) };
    const batcher = new ScanEventBatcher(events, owner, base, { warn: () => undefined }, 3);
    for (let i = 0; i < 5; i++) batcher.add(exchange(`http://site.test/p/${i}`));
    await batcher.stop();
    expect(calls).toHaveLength(1);
    expect(calls[0]!.owner).toEqual(owner);
    expect(calls[0]!.batch.map((event) => event.url)).toEqual(['http://site.test/p/0', 'http://site.test/p/1', 'http://site.test/p/2']);
    expect(calls[0]!.batch[0]).toMatchObject({ ...base, kind: 'page_view', extra: { status: 200, scan_id: 's1' } });
    expect(batcher.dropped).toBe(2);
    await batcher.flush();
    expect(calls[1]!.batch).toEqual([]);
  });

  it('keeps the scan going when recording fails, and logs it', async () => {
    const warnings: string[] = [];
    const events = { recordForAttempt: async () => Promise.reject(new Error('database gone')) };
    const batcher = new ScanEventBatcher(events, owner, base, { warn: (_o: unknown, message: string) => void warnings.push(message) } as never);
    batcher.add(exchange('http://site.test/'));
    await expect(batcher.stop()).resolves.toBeUndefined();
    expect(warnings).toEqual(['could not record scan events']);
  });

  it('maps exchanges to the spec event kinds', () => {
    expect(exchangeKind(exchange('http://site.test/'))).toBe('page_view');
    expect(exchangeKind(exchange('http://site.test/api', { contentType: 'application/json' }))).toBe('api_call');
    expect(exchangeKind(exchange('http://site.test/x', { status: 502 }))).toBe('error');
    expect(exchangeKind(exchange('http://site.test/x', { status: 0 }))).toBe('error');
  });
});

describe('ProgressPublisher', () => {
  const progress = (phase: ScanProgress['phase'], pagesDone: number): ScanProgress => ({ phase, pagesDone, pagesTotal: 10, checksRun: 0, checksTotal: 0, findings: 0 });

  it('sends one live message per 300 ms within a phase, new phases and done at once, and stores once a second', () => {
    let now = 10_000;
    const published: ScanProgress[] = [];
    const stored: ScanProgress[] = [];
    const sinks: ProgressSinks = {
      publish: async (_user, message) => void published.push(message.progress),
      store: async (_scan, p) => void stored.push(p),
    };
    const publisher = new ProgressPublisher({ id: 's1', workspaceId: 'w1', projectId: 'p1' }, sinks, () => now);
    publisher.onProgress(progress('crawl', 1));
    now += 100;
    publisher.onProgress(progress('crawl', 2)); // throttled
    now += 100;
    publisher.onProgress(progress('render', 2)); // new phase: sent
    now += 400;
    publisher.onProgress(progress('render', 3)); // 400 ms later: sent
    now += 100;
    publisher.onProgress(progress('done', 3)); // done: always sent
    expect(published.map((p) => `${p.phase}:${p.pagesDone}`)).toEqual(['crawl:1', 'render:2', 'render:3', 'done:3']);
    expect(stored.map((p) => `${p.phase}:${p.pagesDone}`)).toEqual(['crawl:1']);
    now += 1_000;
    publisher.onProgress(progress('check', 3));
    expect(stored.map((p) => p.phase)).toEqual(['crawl', 'check']);
    expect(publisher.latest).toEqual(progress('check', 3));
  });
});
