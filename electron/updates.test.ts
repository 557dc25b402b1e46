import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startAutoUpdates, updateFeed, UPDATE_INTERVAL_MS, type Updater } from './updates';

function fakeUpdater(check: () => Promise<unknown> = async () => null) {
  const listeners: ((error: Error) => void)[] = [];
  const updater = {
    setFeedURL: vi.fn(),
    checkForUpdatesAndNotify: vi.fn(check),
    on: vi.fn((_event: 'error', listener: (error: Error) => void) => listeners.push(listener)),
  } satisfies Updater;
  return { updater, emitError: (error: Error) => listeners.forEach((listener) => listener(error)) };
}

/** Lets the updater's loading promise settle. */
const settle = () => vi.advanceTimersByTimeAsync(0);

describe('updateFeed', () => {
  const log = vi.fn();
  beforeEach(() => log.mockClear());

  it('is off without VIBEEVAL_UPDATE_URL or a built-in publish config', () => {
    expect(updateFeed({}, false, log)).toBeNull();
    expect(updateFeed({ VIBEEVAL_UPDATE_URL: '  ' }, false, log)).toBeNull();
    expect(log).not.toHaveBeenCalled();
  });

  it('uses the built-in publish config when there is one', () => {
    expect(updateFeed({}, true, log)).toEqual({ kind: 'built-in' });
  });

  it.each(['https://updates.example.com/vibeeval/', 'http://127.0.0.1:8080/feed', 'http://localhost:9000/'])('accepts %s', (url) => {
    expect(updateFeed({ VIBEEVAL_UPDATE_URL: url }, true, log)).toEqual({ kind: 'url', url });
  });

  it.each(['http://updates.example.com/', 'https://user:secret@updates.example.com/', 'https://updates.example.com/#x', 'file:///tmp/feed', 'not a url'])(
    'turns updates off for %s and says so without repeating it',
    (url) => {
      expect(updateFeed({ VIBEEVAL_UPDATE_URL: url }, true, log)).toBeNull();
      expect(log).toHaveBeenCalledOnce();
      expect(String(log.mock.calls[0]?.[0])).not.toContain('secret');
    },
  );
});

describe('startAutoUpdates', () => {
  const log = vi.fn();
  beforeEach(() => {
    vi.useFakeTimers();
    log.mockClear();
  });
  afterEach(() => vi.useRealTimers());

  it('is off without a feed: the updater is never loaded', async () => {
    const loadUpdater = vi.fn(async () => fakeUpdater().updater);
    const updates = startAutoUpdates({ packaged: true, env: {}, hasBuiltInFeed: false, loadUpdater, log });
    await vi.advanceTimersByTimeAsync(UPDATE_INTERVAL_MS * 2);
    expect(updates.enabled).toBe(false);
    expect(loadUpdater).not.toHaveBeenCalled();
  });

  it('is off in development even with a feed', async () => {
    const loadUpdater = vi.fn(async () => fakeUpdater().updater);
    const env = { VIBEEVAL_UPDATE_URL: 'https://updates.example.com/' };
    const updates = startAutoUpdates({ packaged: false, env, hasBuiltInFeed: true, loadUpdater, log });
    await vi.advanceTimersByTimeAsync(UPDATE_INTERVAL_MS);
    expect(updates.enabled).toBe(false);
    expect(loadUpdater).not.toHaveBeenCalled();
  });

  it('with a feed, checks at start and then once per interval', async () => {
    const { updater } = fakeUpdater();
    const env = { VIBEEVAL_UPDATE_URL: 'https://updates.example.com/vibeeval/' };
    const updates = startAutoUpdates({ packaged: true, env, hasBuiltInFeed: false, loadUpdater: async () => updater, log });
    await settle();
    expect(updates.enabled).toBe(true);
    expect(updater.setFeedURL).toHaveBeenCalledWith({ provider: 'generic', url: 'https://updates.example.com/vibeeval/' });
    expect(updater.checkForUpdatesAndNotify).toHaveBeenCalledTimes(1);

    await vi.advanceTimersByTimeAsync(UPDATE_INTERVAL_MS - 1);
    expect(updater.checkForUpdatesAndNotify).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(updater.checkForUpdatesAndNotify).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(UPDATE_INTERVAL_MS);
    expect(updater.checkForUpdatesAndNotify).toHaveBeenCalledTimes(3);

    updates.stop();
    await vi.advanceTimersByTimeAsync(UPDATE_INTERVAL_MS * 3);
    expect(updater.checkForUpdatesAndNotify).toHaveBeenCalledTimes(3);
  });

  it('keeps the built-in feed as packaged (no setFeedURL)', async () => {
    const { updater } = fakeUpdater();
    startAutoUpdates({ packaged: true, env: {}, hasBuiltInFeed: true, loadUpdater: async () => updater, log });
    await settle();
    expect(updater.setFeedURL).not.toHaveBeenCalled();
    expect(updater.checkForUpdatesAndNotify).toHaveBeenCalledTimes(1);
  });

  it('logs failed checks and error events, and keeps checking', async () => {
    const { updater, emitError } = fakeUpdater(async () => {
      throw new Error('feed unreachable');
    });
    startAutoUpdates({ packaged: true, env: {}, hasBuiltInFeed: true, loadUpdater: async () => updater, log });
    await settle();
    expect(log).toHaveBeenCalledWith('vibeeval: update check failed: feed unreachable');
    emitError(new Error('signature mismatch'));
    expect(log).toHaveBeenCalledWith('vibeeval: update check failed: signature mismatch');
    await vi.advanceTimersByTimeAsync(UPDATE_INTERVAL_MS);
    expect(updater.checkForUpdatesAndNotify).toHaveBeenCalledTimes(2);
  });

  it('logs an updater that cannot load instead of throwing', async () => {
    startAutoUpdates({
      packaged: true,
      env: {},
      hasBuiltInFeed: true,
      loadUpdater: async () => {
        throw new Error('no app-update.yml');
      },
      log,
    });
    await settle();
    expect(log).toHaveBeenCalledWith('vibeeval: update check failed: no app-update.yml');
  });
});
