import type { LiveMessage, Project, ScanSummary } from '@common/projects';
import type { Page } from '@common/pagination';
import type { ScanProgress } from '@common/scan';
import type { Scenario, ScenarioDetail, ScenarioRun } from '@common/scenarios';
import { QueryClient, QueryObserver, type InfiniteData } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './http';
import { LiveConnection, applyLiveMessage, parseLiveMessage, reconnectDelay, type LiveSource } from './live';
import { LIVE_REFETCH_WINDOW_MS } from './live-invalidations';
import { queryKeys } from './query-keys';

const progress: ScanProgress = { phase: 'crawl', pagesDone: 2, pagesTotal: 5, checksRun: 3, checksTotal: 40, findings: 1 };
const scan = (state: ScanSummary['state']): ScanSummary => ({
  id: 's1',
  state,
  queued_at: '2025-05-20T12:00:00Z',
  started_at: null,
  finished_at: null,
  progress: null,
  score: null,
  grade: null,
  header_grade: null,
  counts: null,
  error: null,
  report_id: null,
});
const project = (latest: ScanSummary | null): Project => ({
  id: 'p1',
  url: 'https://example.com',
  status: 'active',
  instruction_text: 'Shop',
  secret_instruction: null,
  num_pages: 1,
  creation_date: '2025-05-20T12:00:00Z',
  last_test: null,
  latest_scan: latest,
});

describe('parseLiveMessage', () => {
  it('reads a message whose data repeats its type', () => {
    const data = JSON.stringify({ type: 'scan.progress', project_id: 'p1', scan_id: 's1', progress });
    expect(parseLiveMessage('scan.progress', data)).toEqual({ type: 'scan.progress', project_id: 'p1', scan_id: 's1', progress });
  });

  it('takes the type from the event name when the data leaves it out', () => {
    const data = JSON.stringify({ project_id: 'p1', scan_id: 's1', scan: scan('running') });
    expect(parseLiveMessage('scan.state', data)?.type).toBe('scan.state');
  });

  it.each([
    ['not json', 'scan.progress', '{'],
    ['an array', 'scan.progress', '[]'],
    ['a wrong shape', 'scan.progress', JSON.stringify({ project_id: 'p1' })],
    ['a type that contradicts the event name', 'event', JSON.stringify({ type: 'scan.progress', project_id: 'p1', scan_id: 's1', progress })],
    ['an unknown event', 'scan.unknown', JSON.stringify({ project_id: 'p1' })],
  ])('ignores %s', (_label, name, data) => {
    expect(parseLiveMessage(name, data)).toBeNull();
  });
});

describe('reconnectDelay', () => {
  it('doubles from 1 s up to 30 s, with jitter', () => {
    const mid = () => 0.5;
    expect([0, 1, 2, 3, 4, 5, 6, 20].map((n) => reconnectDelay(n, mid))).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
    expect(reconnectDelay(0, () => 0)).toBe(800);
    expect(reconnectDelay(0, () => 1)).toBe(1200);
  });
});

describe('applyLiveMessage', () => {
  it('stores progress and marks the cached project as running', () => {
    const client = new QueryClient();
    client.setQueryData(queryKeys.projects.detail('p1'), project(scan('queued')));
    applyLiveMessage(client, { type: 'scan.progress', project_id: 'p1', scan_id: 's1', progress });
    expect(client.getQueryData(queryKeys.live.scanProgress('p1'))).toEqual({ scan_id: 's1', progress });
    expect(client.getQueryData<Project>(queryKeys.projects.detail('p1'))?.latest_scan?.state).toBe('running');
  });

  it('on a finished scan: updates the project, drops progress, invalidates detail, scan and list', () => {
    const client = new QueryClient();
    client.setQueryData(queryKeys.projects.detail('p1'), project(scan('running')));
    client.setQueryData(queryKeys.projects.scan('p1'), { scan: null });
    client.setQueryData(queryKeys.projects.list(), []);
    client.setQueryData(queryKeys.live.scanProgress('p1'), { scan_id: 's1', progress });
    const message: LiveMessage = { type: 'scan.state', project_id: 'p1', scan_id: 's1', scan: { ...scan('completed'), grade: 'B' } };
    applyLiveMessage(client, message);
    expect(client.getQueryData<Project>(queryKeys.projects.detail('p1'))?.latest_scan?.grade).toBe('B');
    expect(client.getQueryData(queryKeys.live.scanProgress('p1'))).toBeUndefined();
    for (const key of [queryKeys.projects.detail('p1'), queryKeys.projects.scan('p1'), queryKeys.projects.list()]) {
      expect(client.getQueryState(key)?.isInvalidated).toBe(true);
    }
  });

  it("on a continuous build: invalidates that project's monitoring overview and builds, not another's", () => {
    const client = new QueryClient();
    for (const id of ['p1', 'p2']) {
      client.setQueryData(queryKeys.continuous.monitoring(id), {});
      client.setQueryData(queryKeys.continuous.builds(id), { pages: [], pageParams: [] });
    }
    const build = {
      id: 'b1',
      project_id: 'p1',
      build_hash: '0a1b2c3d',
      status: 'other' as const,
      url: 'https://example.com',
      timestamp: '2026-11-24T18:00:00Z',
      trigger: 'script' as const,
      scan_id: null,
      changes: null,
      finished_at: null,
    };
    applyLiveMessage(client, { type: 'continuous.build', build });
    expect(client.getQueryState(queryKeys.continuous.monitoring('p1'))?.isInvalidated).toBe(true);
    expect(client.getQueryState(queryKeys.continuous.builds('p1'))?.isInvalidated).toBe(true);
    expect(client.getQueryState(queryKeys.continuous.monitoring('p2'))?.isInvalidated).toBe(false);
    expect(client.getQueryState(queryKeys.continuous.builds('p2'))?.isInvalidated).toBe(false);
  });

  it("on an event: invalidates the event lists and that project's events only", () => {
    const client = new QueryClient();
    client.setQueryData(queryKeys.events.recent(30), []);
    client.setQueryData(queryKeys.projects.events('p1'), []);
    client.setQueryData(queryKeys.projects.events('p2'), []);
    client.setQueryData(queryKeys.projects.detail('p1'), project(null));
    applyLiveMessage(client, {
      type: 'event',
      project_id: 'p1',
      event: { id: 'e1', event_name: 'api_call', url: 'https://example.com', timestamp: '2025-05-20T12:00:00Z' },
    });
    expect(client.getQueryState(queryKeys.events.recent(30))?.isInvalidated).toBe(true);
    expect(client.getQueryState(queryKeys.projects.events('p1'))?.isInvalidated).toBe(true);
    expect(client.getQueryState(queryKeys.projects.events('p2'))?.isInvalidated).toBe(false);
    expect(client.getQueryState(queryKeys.projects.detail('p1'))?.isInvalidated).toBe(false);
  });

  it("on a check again's answer: invalidates that project's checks again (its History), and not for other events", () => {
    const client = new QueryClient();
    client.setQueryData(queryKeys.projects.rechecks('p1'), []);
    client.setQueryData(queryKeys.projects.rechecks('p2'), []);
    const event = { id: 'e1', event_name: 'other', url: 'https://example.com/.env', timestamp: '2026-11-29T12:00:00Z' };
    applyLiveMessage(client, { type: 'event', project_id: 'p2', event });
    expect(client.getQueryState(queryKeys.projects.rechecks('p2'))?.isInvalidated).toBe(false);
    applyLiveMessage(client, { type: 'event', project_id: 'p1', event: { ...event, extra: { description: 'Checked again: x: fixed', recheck: 'fixed' } } });
    expect(client.getQueryState(queryKeys.projects.rechecks('p1'))?.isInvalidated).toBe(true);
    expect(client.getQueryState(queryKeys.projects.rechecks('p2'))?.isInvalidated).toBe(false);
  });
});

class FakeSource implements LiveSource {
  static all: FakeSource[] = [];
  onopen: LiveSource['onopen'] = null;
  onerror: LiveSource['onerror'] = null;
  closed = false;
  listeners = new Map<string, (event: MessageEvent<string>) => void>();
  constructor(readonly ticket: string) {
    FakeSource.all.push(this);
  }
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void) {
    this.listeners.set(type, listener);
  }
  close() {
    this.closed = true;
  }
  open() {
    this.onopen?.call(undefined as never, new Event('open'));
  }
  fail() {
    this.onerror?.call(undefined as never, new Event('error'));
  }
  emit(type: string, data: unknown) {
    this.listeners.get(type)?.({ data: JSON.stringify(data) } as MessageEvent<string>);
  }
}

describe('LiveConnection', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    FakeSource.all = [];
  });
  afterEach(() => vi.useRealTimers());

  function connect(getTicket: () => Promise<string>) {
    const messages: LiveMessage[] = [];
    const opens: boolean[] = [];
    const connection = new LiveConnection({
      getTicket,
      openSource: (ticket) => new FakeSource(ticket),
      onMessage: (message) => messages.push(message),
      onOpen: (reconnected) => opens.push(reconnected),
      isFatal: (error) => error instanceof ApiError && error.status === 401,
      delay: (attempt) => 1000 * 2 ** attempt,
    });
    connection.start();
    return { connection, messages, opens };
  }

  it('delivers parsed messages and skips broken ones', async () => {
    const { messages } = connect(async () => 't1');
    await vi.advanceTimersByTimeAsync(0);
    const source = FakeSource.all[0]!;
    expect(source.ticket).toBe('t1');
    source.open();
    source.emit('scan.progress', { project_id: 'p1', scan_id: 's1', progress });
    source.emit('scan.progress', { project_id: 'p1' });
    expect(messages).toHaveLength(1);
  });

  it('reconnects with a fresh ticket after an error, backing off, and resets the delay once open', async () => {
    let n = 0;
    const { connection, opens } = connect(async () => `t${++n}`);
    await vi.advanceTimersByTimeAsync(0);
    FakeSource.all[0]!.open();
    FakeSource.all[0]!.fail();
    expect(FakeSource.all[0]!.closed).toBe(true);
    expect(connection.status).toBe('waiting');
    await vi.advanceTimersByTimeAsync(999);
    expect(FakeSource.all).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeSource.all[1]!.ticket).toBe('t2');
    // Fails before opening: the next wait doubles.
    FakeSource.all[1]!.fail();
    await vi.advanceTimersByTimeAsync(1999);
    expect(FakeSource.all).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeSource.all[2]!.ticket).toBe('t3');
    FakeSource.all[2]!.open();
    expect(opens).toEqual([false, true]);
    expect(connection.status).toBe('open');
    // Open again: back to the first delay.
    FakeSource.all[2]!.fail();
    await vi.advanceTimersByTimeAsync(1000);
    expect(FakeSource.all).toHaveLength(4);
  });

  it('retries a failed ticket request, and stops on a fatal one', async () => {
    const getTicket = vi.fn<() => Promise<string>>().mockRejectedValueOnce(new ApiError(500, 'boom')).mockRejectedValueOnce(new ApiError(401, 'Authentication required'));
    const { connection } = connect(getTicket);
    await vi.advanceTimersByTimeAsync(0);
    expect(connection.status).toBe('waiting');
    await vi.advanceTimersByTimeAsync(1000);
    expect(getTicket).toHaveBeenCalledTimes(2);
    expect(connection.status).toBe('stopped');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(getTicket).toHaveBeenCalledTimes(2);
    expect(FakeSource.all).toHaveLength(0);
  });

  it('stop() closes the stream and ignores a ticket that arrives later', async () => {
    let resolve: (ticket: string) => void = () => {};
    const { connection } = connect(() => new Promise<string>((r) => (resolve = r)));
    connection.stop();
    resolve('late');
    await vi.advanceTimersByTimeAsync(0);
    expect(FakeSource.all).toHaveLength(0);
    expect(connection.status).toBe('stopped');
  });
});

describe('applyLiveMessage: scenario.run', () => {
  const run = (id: string, status: ScenarioRun['status'], createdAt: string): ScenarioRun => ({
    id,
    scenario_id: 'sc1',
    status,
    created_at: createdAt,
    started_at: null,
    duration_ms: status === 'passed' ? 900 : null,
    failed_step: null,
    error: null,
    steps: [],
    console_errors: [],
    failed_requests: [],
    screenshot_url: null,
    trace_url: null,
  });
  const scenario = (lastRun: ScenarioRun | null): Scenario => ({
    id: 'sc1',
    project_id: null,
    website: 'https://shop.example/',
    actions: '[]',
    summarized_actions: 'Login',
    scenario_code: '',
    created_at: '2026-11-01T00:00:00.000Z',
    last_run: lastRun,
  });

  it("updates the row's last run in every loaded page and the scenario's run history", () => {
    const client = new QueryClient();
    const queued = run('r2', 'queued', '2026-11-02T00:00:00.000Z');
    const other = { ...scenario(null), id: 'sc2' };
    client.setQueryData(queryKeys.scenarios.list(), { pageParams: [null], pages: [{ items: [scenario(queued), other], nextCursor: null }] });
    client.setQueryData<ScenarioDetail>(queryKeys.scenarios.detail('sc1'), { ...scenario(queued), runs: [queued, run('r1', 'failed', '2026-11-01T00:00:00.000Z')] });

    applyLiveMessage(client, { type: 'scenario.run', scenario_id: 'sc1', run: { ...queued, status: 'passed' } });

    const list = client.getQueryData<InfiniteData<Page<Scenario>>>(queryKeys.scenarios.list());
    expect(list?.pages[0]?.items[0]?.last_run?.status).toBe('passed');
    expect(list?.pages[0]?.items[1]?.last_run).toBeNull();
    const detail = client.getQueryData<ScenarioDetail>(queryKeys.scenarios.detail('sc1'));
    expect(detail?.runs.map((r) => [r.id, r.status])).toEqual([
      ['r2', 'passed'],
      ['r1', 'failed'],
    ]);
    expect(detail?.last_run?.status).toBe('passed');
  });

  it('puts a new run first in the history and ignores a late message about an older run', () => {
    const client = new QueryClient();
    const newer = run('r2', 'running', '2026-11-02T00:00:00.000Z');
    client.setQueryData(queryKeys.scenarios.list(), { pageParams: [null], pages: [{ items: [scenario(newer)], nextCursor: null }] });
    applyLiveMessage(client, { type: 'scenario.run', scenario_id: 'sc1', run: run('r1', 'failed', '2026-11-01T00:00:00.000Z') });
    expect(client.getQueryData<InfiniteData<Page<Scenario>>>(queryKeys.scenarios.list())?.pages[0]?.items[0]?.last_run?.id).toBe('r2');

    client.setQueryData<ScenarioDetail>(queryKeys.scenarios.detail('sc1'), { ...scenario(newer), runs: [newer] });
    applyLiveMessage(client, { type: 'scenario.run', scenario_id: 'sc1', run: run('r3', 'queued', '2026-11-03T00:00:00.000Z') });
    expect(client.getQueryData<ScenarioDetail>(queryKeys.scenarios.detail('sc1'))?.runs.map((r) => r.id)).toEqual(['r3', 'r2']);
  });
});

describe('applyLiveMessage: a burst of messages', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  type Row = { id: string };
  const eventMessage = (id: string): LiveMessage => ({
    type: 'event',
    project_id: 'p1',
    event: { id, event_name: 'page_view', url: 'https://example.com', timestamp: '2026-11-28T08:00:00Z' },
  });

  /** An events list on screen (an active observer) over a server whose list the test grows; `hold` keeps answers back. */
  async function watchedList() {
    const client = new QueryClient({ defaultOptions: { queries: { staleTime: 10_000 } } });
    const server: Row[] = [];
    const requests: AbortSignal[] = [];
    let held: (() => void) | null = null;
    let hold = false;
    const observer = new QueryObserver<Row[]>(client, {
      queryKey: queryKeys.events.recent(30),
      queryFn: async ({ signal }) => {
        requests.push(signal);
        const answer = [...server].reverse();
        if (hold) await new Promise<void>((resolve) => (held = resolve));
        return answer;
      },
    });
    const unsubscribe = observer.subscribe(() => {});
    await vi.advanceTimersByTimeAsync(0);
    const burst = (count: number) => {
      for (let i = 0; i < count; i++) {
        const id = `e${server.length + 1}`;
        server.push({ id });
        applyLiveMessage(client, eventMessage(id));
      }
    };
    return {
      client,
      requests,
      burst,
      list: () => client.getQueryData<Row[]>(queryKeys.events.recent(30)),
      holdAnswers: (on: boolean) => (hold = on),
      release: () => held?.(),
      unsubscribe,
    };
  }

  it('50 event messages refetch the events list once, and it ends with the newest event', async () => {
    const list = await watchedList();
    expect(list.requests).toHaveLength(1);
    list.burst(50);
    expect(list.client.getQueryState(queryKeys.events.recent(30))?.isInvalidated).toBe(true);
    await vi.advanceTimersByTimeAsync(LIVE_REFETCH_WINDOW_MS);
    await vi.advanceTimersByTimeAsync(LIVE_REFETCH_WINDOW_MS * 10);
    expect(list.requests).toHaveLength(2);
    expect(list.requests.some((signal) => signal.aborted)).toBe(false);
    expect(list.list()?.[0]).toEqual({ id: 'e50' });
    expect(list.list()).toHaveLength(50);
    list.unsubscribe();
  });

  it('messages during a refetch do not cancel it: one more refetch follows it, with the newest event', async () => {
    const list = await watchedList();
    list.holdAnswers(true);
    list.burst(10);
    await vi.advanceTimersByTimeAsync(LIVE_REFETCH_WINDOW_MS);
    expect(list.requests).toHaveLength(2);
    // The second burst arrives while that request is on its way, and for several windows.
    list.burst(10);
    await vi.advanceTimersByTimeAsync(LIVE_REFETCH_WINDOW_MS * 5);
    expect(list.requests).toHaveLength(2);
    expect(list.requests[1]?.aborted).toBe(false);
    list.holdAnswers(false);
    list.release();
    await vi.advanceTimersByTimeAsync(LIVE_REFETCH_WINDOW_MS * 2);
    await vi.advanceTimersByTimeAsync(LIVE_REFETCH_WINDOW_MS * 10);
    expect(list.requests).toHaveLength(3);
    expect(list.list()?.[0]).toEqual({ id: 'e20' });
    list.unsubscribe();
  });

  it('a list nobody shows is marked stale and not fetched', async () => {
    const client = new QueryClient();
    const queryFn = vi.fn(async () => []);
    await client.prefetchQuery({ queryKey: queryKeys.events.recent(30), queryFn });
    for (let i = 0; i < 50; i++) applyLiveMessage(client, eventMessage(`e${i}`));
    await vi.advanceTimersByTimeAsync(LIVE_REFETCH_WINDOW_MS * 10);
    expect(queryFn).toHaveBeenCalledTimes(1);
    expect(client.getQueryState(queryKeys.events.recent(30))?.isInvalidated).toBe(true);
  });
});
