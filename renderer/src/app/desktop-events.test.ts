import { describe, expect, it, vi } from 'vitest';
import type { Bridge } from '../bridge';
import { listenToDesktopEvents } from './desktop-events';

vi.mock('../ui/toaster', () => ({ notify: { info: vi.fn() } }));
const { notify } = await import('../ui/toaster');

/** A bridge whose main process is this test: `emit` plays an event from main. */
function fakeBridge() {
  const listeners = new Map<string, (payload: never) => void>();
  const bridge = {
    subscribe: (channel: string, listener: (payload: never) => void) => {
      listeners.set(channel, listener);
      return () => listeners.delete(channel);
    },
  } as unknown as Bridge;
  const emit = (channel: string, payload: unknown) => listeners.get(channel)?.(payload as never);
  return { bridge, emit, listeners };
}

describe('app-wide desktop events', () => {
  it('opens the page main asks for and shows notices, until unsubscribed', () => {
    const { bridge, emit, listeners } = fakeBridge();
    const navigate = vi.fn();
    const stop = listenToDesktopEvents(bridge, { navigate });
    emit('vibeeval:event:navigate', { path: '/dashboard/projects/7' });
    emit('vibeeval:event:notice', { kind: 'keychain-fallback', title: 'Keychain unavailable', message: 'Kept encrypted.' });
    expect(navigate).toHaveBeenCalledWith('/dashboard/projects/7');
    expect(notify.info).toHaveBeenCalledWith('Keychain unavailable', 'Kept encrypted.');
    stop();
    expect(listeners.size).toBe(0);
  });
});
