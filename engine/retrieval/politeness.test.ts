import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HostPoliteness, parseRetryAfter } from './politeness';

const HOST = 'app.example:443';
const ok = (latencyMs = 10) => ({ status: 200, latencyMs, attempt: 0 });

/** Starts `count` acquisitions and says how many have resolved after the pending microtasks ran. */
async function started(pacer: HostPoliteness, host: string, count: number): Promise<{ resolved: () => number }> {
  let resolved = 0;
  for (let i = 0; i < count; i++) void pacer.acquire(host).then(() => resolved++);
  await vi.advanceTimersByTimeAsync(0);
  return { resolved: () => resolved };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('parseRetryAfter', () => {
  it.each([
    ['3', 3_000],
    [' 0 ', 0],
    ['Wed, 21 Oct 2015 07:28:05 GMT', 5_000],
    ['Wed, 21 Oct 2015 07:27:00 GMT', 0],
    ['soon', undefined],
    [undefined, undefined],
  ])('%s -> %s ms', (value, expected) => {
    expect(parseRetryAfter(value, Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(expected);
  });
});

describe('HostPoliteness', () => {
  it('sends one request to a host until it has answered, then at most 4 in flight', async () => {
    const pacer = new HostPoliteness();
    const first = await started(pacer, HOST, 1);
    expect(first.resolved()).toBe(1);
    const more = await started(pacer, HOST, 9);
    expect(more.resolved()).toBe(0);
    pacer.release(HOST, ok());
    await vi.advanceTimersByTimeAsync(0);
    expect(more.resolved()).toBe(4);
    expect(pacer.inFlightOf(HOST)).toBe(4);
    pacer.release(HOST, ok());
    await vi.advanceTimersByTimeAsync(0);
    expect(more.resolved()).toBe(5);
    expect(pacer.inFlightOf(HOST)).toBe(4);
  });

  it('gives each host its own budget: a busy CDN does not hold back the site', async () => {
    const pacer = new HostPoliteness();
    await started(pacer, 'cdn.example:443', 1);
    pacer.release('cdn.example:443', ok());
    await started(pacer, 'cdn.example:443', 4);
    const site = await started(pacer, HOST, 1);
    expect(site.resolved()).toBe(1);
  });

  it('halves the window on 429 and pauses the host for Retry-After before anything else goes', async () => {
    const pacer = new HostPoliteness();
    await started(pacer, HOST, 1);
    pacer.release(HOST, ok());
    await started(pacer, HOST, 4);
    const retryIn = pacer.release(HOST, { status: 429, retryAfter: '2', attempt: 0 });
    expect(retryIn).toBe(2_000);
    expect(pacer.windowOf(HOST)).toBe(2);
    for (let i = 0; i < 3; i++) pacer.release(HOST, ok());
    const next = await started(pacer, HOST, 1);
    await vi.advanceTimersByTimeAsync(1_990);
    expect(next.resolved()).toBe(0);
    await vi.advanceTimersByTimeAsync(20);
    expect(next.resolved()).toBe(1);
  });

  it('backs off exponentially without Retry-After, capped, and a 503 without it is slowed but not retried', () => {
    const pacer = new HostPoliteness({ backoffMs: 500, maxPauseMs: 3_000 });
    const outcomes = [0, 1, 2, 3].map((attempt) => {
      pacer.release(HOST, ok());
      return pacer.release(HOST, { status: 429, attempt });
    });
    expect(outcomes).toEqual([500, 1_000, 2_000, 3_000]);
    expect(pacer.release(HOST, { status: 429, retryAfter: '120', attempt: 0 })).toBe(3_000);
    expect(pacer.windowOf(HOST)).toBe(1);
    const other = new HostPoliteness();
    expect(other.release('b:1', { status: 503, attempt: 0 })).toBeUndefined();
    expect(other.windowOf('b:1')).toBe(2);
    expect(other.release('b:1', { status: 503, retryAfter: '1', attempt: 0 })).toBe(1_000);
  });

  it('shrinks the window when answers get three times slower than the first ones, and grows back when healthy', () => {
    const pacer = new HostPoliteness();
    for (let i = 0; i < 3; i++) pacer.release(HOST, ok(100));
    expect(pacer.windowOf(HOST)).toBe(4);
    for (let i = 0; i < 6; i++) pacer.release(HOST, ok(1_000));
    expect(pacer.windowOf(HOST)).toBeLessThanOrEqual(2);
    for (let i = 0; i < 40; i++) pacer.release(HOST, ok(100));
    expect(pacer.windowOf(HOST)).toBe(4);
  });

  it('keeps a fast local host at full window: small absolute slowdowns are noise', () => {
    const pacer = new HostPoliteness();
    for (let i = 0; i < 3; i++) pacer.release(HOST, ok(1));
    for (let i = 0; i < 20; i++) pacer.release(HOST, ok(30));
    expect(pacer.windowOf(HOST)).toBe(4);
  });

  it('respects a ceiling of requests per second per host', async () => {
    const pacer = new HostPoliteness({ ceiling: 5 });
    await started(pacer, HOST, 1);
    pacer.release(HOST, ok());
    const burst = await started(pacer, HOST, 4);
    expect(burst.resolved()).toBe(0);
    await vi.advanceTimersByTimeAsync(200);
    expect(burst.resolved()).toBe(1);
    await vi.advanceTimersByTimeAsync(600);
    expect(burst.resolved()).toBe(4);
  });

  it('lets every waiting request go when released (a stopped scan)', async () => {
    const pacer = new HostPoliteness();
    await started(pacer, HOST, 1);
    const waiting = await started(pacer, HOST, 3);
    pacer.releaseAll();
    await vi.advanceTimersByTimeAsync(0);
    expect(waiting.resolved()).toBe(3);
  });
});
