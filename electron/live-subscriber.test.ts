import { describe, expect, it, vi } from 'vitest';
import type { ActiveSession } from './live-session';
import { createLiveSubscriber, parseLiveEvent, reconnectDelay, type LiveSubscriberStatus } from './live-subscriber';

const ORIGIN = 'http://127.0.0.1:9';
const PROJECT = '11111111-1111-4111-8111-111111111111';
const progress = {
  type: 'scan.progress',
  project_id: PROJECT,
  scan_id: 's1',
  progress: { phase: 'crawl', pagesDone: 1, pagesTotal: 2, checksRun: 0, checksTotal: 10, findings: 0 },
};

/** A fake server: every ticket is granted; each stream is a ReadableStream the test writes to and closes. */
function fakeServer() {
  const streams: ReadableStreamDefaultController<Uint8Array>[] = [];
  const calls: { url: string; authorization: string | undefined; workspace: string | undefined }[] = [];
  const encoder = new TextEncoder();
  const fetchImpl = vi.fn<typeof fetch>(async (input, init) => {
    const url = input instanceof Request ? input.url : input.toString();
    const headers = init?.headers as Record<string, string> | undefined;
    calls.push({ url, authorization: headers?.authorization, workspace: headers?.['x-vibeeval-workspace'] });
    if (url.endsWith('/live/ticket')) return Response.json({ ticket: `t${calls.length}`, expires_in: 60 });
    const body = new ReadableStream<Uint8Array>({ start: (controller) => void streams.push(controller) });
    init?.signal?.addEventListener('abort', () => {
      try {
        streams.at(-1)?.error(new Error('aborted'));
      } catch {
        // already closed
      }
    });
    return new Response(body, { headers: { 'content-type': 'text/event-stream; charset=utf-8' } });
  });
  return {
    fetch: fetchImpl,
    calls,
    write: (text: string) => streams.at(-1)?.enqueue(encoder.encode(text)),
    end: () => streams.at(-1)?.close(),
    get streams() {
      return streams.length;
    },
  };
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(check()).toBe(true);
}

function sessionOf(value: ActiveSession | null) {
  const holder = { value };
  return { holder, session: { current: async () => holder.value } };
}

describe('reconnectDelay', () => {
  it('doubles from 1 s, caps at 30 s, and stays within ±20 % jitter', () => {
    expect([0, 1, 2, 3, 4, 5, 20].map((attempt) => reconnectDelay(attempt, () => 0.5))).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
    expect(reconnectDelay(0, () => 0)).toBe(800);
    expect(reconnectDelay(20, () => 1)).toBe(36000);
  });
});

describe('parseLiveEvent', () => {
  it('reads the data of a known event name, with or without its type', () => {
    const { type: _type, ...untyped } = progress;
    expect(parseLiveEvent({ event: 'scan.progress', data: JSON.stringify(progress) })).toEqual(progress);
    expect(parseLiveEvent({ event: 'scan.progress', data: JSON.stringify(untyped) })).toEqual(progress);
  });

  it('ignores unknown names, mismatched types, broken JSON and invalid shapes', () => {
    expect(parseLiveEvent({ event: 'message', data: JSON.stringify(progress) })).toBeNull();
    expect(parseLiveEvent({ event: 'scan.state', data: JSON.stringify(progress) })).toBeNull();
    expect(parseLiveEvent({ event: 'scan.progress', data: '{"project_id":' })).toBeNull();
    expect(parseLiveEvent({ event: 'scan.progress', data: '[1]' })).toBeNull();
    expect(parseLiveEvent({ event: 'scan.progress', data: JSON.stringify({ ...progress, scan_id: 5 }) })).toBeNull();
  });
});

describe('createLiveSubscriber', () => {
  it('sends the bearer token for the ticket, delivers messages, and reconnects after the stream ends', async () => {
    const server = fakeServer();
    const { session } = sessionOf({ userId: 'u1', accessToken: 'token-1' });
    const messages: unknown[] = [];
    const opens: boolean[] = [];
    const delay = vi.fn(() => 5);
    const subscriber = createLiveSubscriber({ origin: ORIGIN, session, fetch: server.fetch, delay, onMessage: (m) => messages.push(m), onOpen: (e) => opens.push(e.reconnected) });
    subscriber.start();
    await until(() => subscriber.status === 'open');
    expect(server.calls[0]).toEqual({ url: `${ORIGIN}/live/ticket`, authorization: 'Bearer token-1' });
    expect(server.calls[1]?.url).toBe(`${ORIGIN}/live?ticket=t1`);
    server.write(`retry: 3000\n\n: ping\n\nevent: scan.progress\ndata: ${JSON.stringify(progress)}\n\n`);
    await until(() => messages.length === 1);
    expect(messages).toEqual([progress]);

    server.end();
    await until(() => server.streams === 2 && subscriber.status === 'open');
    expect(opens).toEqual([false, true]);
    expect(delay).toHaveBeenCalledWith(0);
    subscriber.stop();
    expect(subscriber.status).toBe('stopped');
  });

  it('grows the pause while connections keep failing, and resets it once one opens', async () => {
    const server = fakeServer();
    let failures = 2;
    const fetchImpl: typeof fetch = (input, init) => (failures-- > 0 ? Promise.reject(new TypeError('fetch failed')) : server.fetch(input, init));
    const delay = vi.fn((_attempt: number) => 1);
    const subscriber = createLiveSubscriber({ origin: ORIGIN, session: sessionOf({ userId: 'u1', accessToken: 't' }).session, fetch: fetchImpl, delay, onMessage: () => {} });
    subscriber.start();
    await until(() => subscriber.status === 'open');
    server.end();
    await until(() => server.streams === 2 && subscriber.status === 'open');
    expect(delay.mock.calls.map(([attempt]) => attempt)).toEqual([0, 1, 0]);
    subscriber.stop();
  });

  it('keeps the stream when the same user refreshes, restarts for another user, and stops on sign-out', async () => {
    const server = fakeServer();
    const { holder, session } = sessionOf({ userId: 'u1', accessToken: 'a' });
    const statuses: LiveSubscriberStatus[] = [];
    const subscriber = createLiveSubscriber({ origin: ORIGIN, session, fetch: server.fetch, delay: () => 1, onMessage: () => {}, onStatus: (s) => statuses.push(s) });
    subscriber.start();
    await until(() => subscriber.status === 'open');

    holder.value = { userId: 'u1', accessToken: 'b' };
    subscriber.sessionChanged();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(server.streams).toBe(1);
    expect(subscriber.userId).toBe('u1');

    holder.value = { userId: 'u2', accessToken: 'c' };
    subscriber.sessionChanged();
    await until(() => server.streams === 2 && subscriber.status === 'open');
    expect(server.calls.at(-2)?.authorization).toBe('Bearer c');
    expect(subscriber.userId).toBe('u2');

    holder.value = null;
    subscriber.sessionChanged();
    await until(() => subscriber.status === 'signed-out');
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(server.streams).toBe(2);
    expect(statuses.at(-1)).toBe('signed-out');
    expect(subscriber.userId).toBeNull();
    subscriber.stop();
  });

  it('asks its ticket in the workspace the app shows, and opens a new stream when another one is chosen', async () => {
    const server = fakeServer();
    const team = '22222222-2222-4222-8222-222222222222';
    const { holder, session } = sessionOf({ userId: 'u1', accessToken: 'a', workspaceId: null });
    const subscriber = createLiveSubscriber({ origin: ORIGIN, session, fetch: server.fetch, delay: () => 1, onMessage: () => {} });
    subscriber.start();
    await until(() => subscriber.status === 'open');
    // The personal workspace: no header, the server takes the caller's own.
    expect(server.calls[0]).toMatchObject({ url: `${ORIGIN}/live/ticket`, workspace: undefined });

    holder.value = { userId: 'u1', accessToken: 'a', workspaceId: team };
    subscriber.sessionChanged();
    await until(() => server.streams === 2 && subscriber.status === 'open');
    expect(server.calls.at(-2)).toMatchObject({ url: `${ORIGIN}/live/ticket`, authorization: 'Bearer a', workspace: team });

    // A token refresh in the same workspace keeps that stream.
    holder.value = { userId: 'u1', accessToken: 'b', workspaceId: team };
    subscriber.sessionChanged();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(server.streams).toBe(2);
    subscriber.stop();
  });

  it('drops a silent stream and connects again', async () => {
    const server = fakeServer();
    const subscriber = createLiveSubscriber({
      origin: ORIGIN,
      session: sessionOf({ userId: 'u1', accessToken: 't' }).session,
      fetch: server.fetch,
      delay: () => 1,
      idleTimeoutMs: 40,
      onMessage: () => {},
    });
    subscriber.start();
    await until(() => server.streams >= 2);
    subscriber.stop();
  });

  it('takes a refused ticket or a non-stream answer as a failed attempt', async () => {
    const answers = [new Response('{}', { status: 401 }), Response.json({ ticket: 'x', expires_in: 60 }), new Response('<html>', { headers: { 'content-type': 'text/html' } })];
    const fetchImpl = vi.fn<typeof fetch>(async () => answers.shift() ?? new Response('{}', { status: 503 }));
    const log = vi.fn();
    const subscriber = createLiveSubscriber({
      origin: ORIGIN,
      session: sessionOf({ userId: 'u1', accessToken: 't' }).session,
      fetch: fetchImpl,
      delay: () => 1,
      log,
      onMessage: () => {},
    });
    subscriber.start();
    await until(() => fetchImpl.mock.calls.length >= 8);
    subscriber.stop();
    // The same failure again and again is logged once.
    expect(log.mock.calls.map(([message]) => message as string)).toEqual([
      'live stream: the live ticket was refused (401)',
      'live stream: the live stream answered 200 text/html',
      'live stream: the live ticket was refused (503)',
    ]);
  });
});
