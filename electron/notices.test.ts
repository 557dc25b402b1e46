import { describe, expect, it, vi } from 'vitest';
import type { Notice } from '../common/ipc';
import { createNoticeQueue, KEYCHAIN_FALLBACK_NOTICE, keychainFallbackReporter } from './notices';

describe('notice queue', () => {
  it('keeps notices until the renderer takes them, then sends later ones as events', () => {
    const send = vi.fn<(notice: Notice) => boolean>(() => true);
    const queue = createNoticeQueue({ send });
    const delivered = vi.fn();
    queue.push(KEYCHAIN_FALLBACK_NOTICE, delivered);
    expect(send).not.toHaveBeenCalled();
    expect(delivered).not.toHaveBeenCalled();
    expect(queue.take()).toEqual([KEYCHAIN_FALLBACK_NOTICE]);
    expect(delivered).toHaveBeenCalledOnce();
    expect(queue.take()).toEqual([]);

    const later = vi.fn();
    queue.push(KEYCHAIN_FALLBACK_NOTICE, later);
    expect(send).toHaveBeenCalledWith(KEYCHAIN_FALLBACK_NOTICE);
    expect(later).toHaveBeenCalledOnce();
    expect(queue.take()).toEqual([]);
  });

  it('keeps a notice whose event could not be sent (no window), and the same kind only once', () => {
    const queue = createNoticeQueue({ send: () => false });
    queue.take();
    queue.push(KEYCHAIN_FALLBACK_NOTICE);
    queue.push(KEYCHAIN_FALLBACK_NOTICE);
    expect(queue.take()).toEqual([KEYCHAIN_FALLBACK_NOTICE]);
  });

  it('refuses a notice outside the contract', () => {
    const queue = createNoticeQueue({ send: () => true });
    expect(() => queue.push({ kind: 'keychain-fallback', title: '', message: 'x' })).toThrow();
    expect(queue.take()).toEqual([]);
  });
});

describe('keychain fallback notice', () => {
  it('is queued once per install: not when already shown, and marked shown when delivered', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    let shown = false;
    const queue = createNoticeQueue({ send: () => true });
    const report = keychainFallbackReporter({ queue, alreadyShown: () => shown, markShown: () => (shown = true) });

    report('libsecret missing');
    expect(shown).toBe(false); // not delivered yet
    expect(queue.take()).toEqual([KEYCHAIN_FALLBACK_NOTICE]);
    expect(shown).toBe(true);

    const push = vi.spyOn(queue, 'push');
    report('libsecret missing');
    expect(push).not.toHaveBeenCalled();
    expect(console.warn).toHaveBeenCalledWith(expect.stringContaining('libsecret missing'));
  });

  it('says what happened without the technical reason', () => {
    expect(KEYCHAIN_FALLBACK_NOTICE.title).toBe('System keychain unavailable');
    expect(KEYCHAIN_FALLBACK_NOTICE.message).toMatch(/encrypted/);
  });
});
