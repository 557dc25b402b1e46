import { describe, expect, it, vi } from 'vitest';
import { sendEvent, type EventTarget } from './events';

function fakeWindow(url = 'app://vibeeval/dashboard', destroyed = false) {
  const send = vi.fn();
  const target: EventTarget = { isDestroyed: () => destroyed, webContents: { getURL: () => url, send } };
  return { target, send };
}

describe('main → renderer events', () => {
  it('sends a payload of the contract to the app window', () => {
    const { target, send } = fakeWindow();
    expect(sendEvent(target, 'vibeeval:event:navigate', { path: '/dashboard/projects/42' })).toBe(true);
    expect(send).toHaveBeenCalledWith('vibeeval:event:navigate', { path: '/dashboard/projects/42' });
  });

  it('refuses a payload outside the contract (a bug in main never reaches the page)', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { target, send } = fakeWindow();
    expect(sendEvent(target, 'vibeeval:event:navigate', { path: 'https://evil.example/' })).toBe(false);
    expect(sendEvent(target, 'vibeeval:event:navigate', { path: '//evil.example/x' })).toBe(false);
    expect(sendEvent(target, 'vibeeval:event:menu', { command: 'format-disk' } as never)).toBe(false);
    expect(send).not.toHaveBeenCalled();
    expect(error).toHaveBeenCalledTimes(3);
    error.mockRestore();
  });

  it('sends nothing to a closed window or one that left the app', () => {
    expect(sendEvent(null, 'vibeeval:event:menu', { command: 'new-project' })).toBe(false);
    const closed = fakeWindow('app://vibeeval/', true);
    expect(sendEvent(closed.target, 'vibeeval:event:menu', { command: 'new-project' })).toBe(false);
    const elsewhere = fakeWindow('https://example.com/');
    expect(sendEvent(elsewhere.target, 'vibeeval:event:menu', { command: 'new-project' })).toBe(false);
    expect(closed.send).not.toHaveBeenCalled();
    expect(elsewhere.send).not.toHaveBeenCalled();
  });
});
