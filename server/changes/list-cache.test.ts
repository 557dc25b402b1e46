import { describe, expect, it } from 'vitest';
import { ListCache, type CachedAnswer } from './list-cache';

const answer = (body: string): CachedAnswer => ({ body, headers: {} });

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('ListCache', () => {
  it('serves nothing from memory until the change feed listens', async () => {
    const cache = new ListCache();
    let loads = 0;
    const load = async () => answer(String(++loads));
    expect((await cache.get('u1', 'k', load)).body).toBe('1');
    expect((await cache.get('u1', 'k', load)).body).toBe('2');
    cache.setListening(true);
    expect((await cache.get('u1', 'k', load)).body).toBe('3');
    expect((await cache.get('u1', 'k', load)).body).toBe('3');
  });

  it('drops a user answer on that user change only, and everything when the feed is lost', async () => {
    const cache = new ListCache();
    cache.setListening(true);
    let loads = 0;
    const load = async () => answer(String(++loads));
    await cache.get('u1', 'k', load);
    await cache.get('u2', 'k', load);
    cache.invalidate('u1');
    expect((await cache.get('u1', 'k', load)).body).toBe('3');
    expect((await cache.get('u2', 'k', load)).body).toBe('2');
    cache.setListening(false);
    expect((await cache.get('u2', 'k', load)).body).toBe('4');
    expect((await cache.get('u2', 'k', load)).body).toBe('5');
  });

  it('does not keep an answer whose load overlapped a change of the user', async () => {
    const cache = new ListCache();
    cache.setListening(true);
    const slow = deferred<CachedAnswer>();
    const inFlight = cache.get('u1', 'k', () => slow.promise);
    cache.invalidate('u1');
    slow.resolve(answer('old rows'));
    expect((await inFlight).body).toBe('old rows');
    expect((await cache.get('u1', 'k', async () => answer('new rows'))).body).toBe('new rows');
  });

  it('expires answers after the ttl and keeps at most maxUsers users', async () => {
    let now = 0;
    const cache = new ListCache({ ttlMs: 100, maxUsers: 2, now: () => now });
    cache.setListening(true);
    let loads = 0;
    const load = async () => answer(String(++loads));
    await cache.get('u1', 'k', load);
    now = 99;
    expect((await cache.get('u1', 'k', load)).body).toBe('1');
    now = 100;
    expect((await cache.get('u1', 'k', load)).body).toBe('2');
    await cache.get('u2', 'k', load);
    await cache.get('u3', 'k', load);
    expect((await cache.get('u1', 'k', load)).body).toBe('5');
  });

  it('serves but does not keep answers over maxBodyBytes', async () => {
    const cache = new ListCache({ maxBodyBytes: 4 });
    cache.setListening(true);
    let loads = 0;
    const load = async () => answer('x'.repeat(5) + ++loads);
    await cache.get('u1', 'k', load);
    expect((await cache.get('u1', 'k', load)).body).toBe('xxxxx2');
  });
});
