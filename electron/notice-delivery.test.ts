import { describe, expect, it, vi } from 'vitest';
import type { EventTarget } from './events';
import { nativeNotifications, projectOpener, type NativeNotification, type NotificationApi } from './notice-delivery';

function fakeNotificationApi(supported: boolean) {
  const created: { options: { title: string; body: string }; listeners: Map<string, () => void>; shown: boolean }[] = [];
  class FakeNotification implements NativeNotification {
    static isSupported = () => supported;
    private readonly record: (typeof created)[number];
    constructor(options: { title: string; body: string }) {
      this.record = { options, listeners: new Map(), shown: false };
      created.push(this.record);
    }
    on(event: 'click' | 'close', listener: () => void) {
      this.record.listeners.set(event, listener);
      return this;
    }
    show() {
      this.record.shown = true;
    }
  }
  return { api: FakeNotification as NotificationApi, created };
}

describe('nativeNotifications', () => {
  it('shows the notice and runs the click handler when clicked', () => {
    const { api, created } = fakeNotificationApi(true);
    const onClick = vi.fn();
    nativeNotifications(api)({ title: 'Scan finished: shop.example', body: 'Grade A. 0 critical issues, 0 high issues.' }, onClick);
    expect(created).toHaveLength(1);
    expect(created[0]?.options).toEqual({ title: 'Scan finished: shop.example', body: 'Grade A. 0 critical issues, 0 high issues.' });
    expect(created[0]?.shown).toBe(true);
    expect(onClick).not.toHaveBeenCalled();
    created[0]?.listeners.get('click')?.();
    expect(onClick).toHaveBeenCalledTimes(1);
  });

  it('shows nothing where the platform has no notifications', () => {
    const { api, created } = fakeNotificationApi(false);
    nativeNotifications(api)({ title: 't', body: 'b' }, () => {});
    expect(created).toEqual([]);
  });
});

describe('projectOpener', () => {
  function fakeWindow(destroyed = false) {
    const send = vi.fn();
    const target: EventTarget = { isDestroyed: () => destroyed, webContents: { getURL: () => 'app://vibeeval/dashboard', send } };
    return { target, send };
  }

  it('navigates the open window to the project', () => {
    const { target, send } = fakeWindow();
    const reopen = vi.fn(async () => {});
    projectOpener({ getWindow: () => target, reopen })('7f0c');
    expect(send).toHaveBeenCalledWith('vibeeval:event:navigate', { path: '/dashboard/projects/7f0c' });
    expect(reopen).not.toHaveBeenCalled();
  });

  it('opens another page of the project when the notice names one', () => {
    const { target, send } = fakeWindow();
    const reopen = vi.fn(async () => {});
    projectOpener({ getWindow: () => target, reopen })('7f0c', '/dashboard/continuous-testing?project=7f0c');
    expect(send).toHaveBeenCalledWith('vibeeval:event:navigate', { path: '/dashboard/continuous-testing?project=7f0c' });
    projectOpener({ getWindow: () => null, reopen })('7f0c', '/dashboard/continuous-testing?project=7f0c');
    expect(reopen).toHaveBeenCalledWith('/dashboard/continuous-testing?project=7f0c');
  });

  it('opens a window on the project when none is open (macOS) or it is gone', async () => {
    const reopen = vi.fn(async () => {});
    projectOpener({ getWindow: () => null, reopen })('7f0c');
    const { target, send } = fakeWindow(true);
    projectOpener({ getWindow: () => target, reopen })('a/b');
    expect(reopen.mock.calls).toEqual([['/dashboard/projects/7f0c'], ['/dashboard/projects/a%2Fb']]);
    expect(send).not.toHaveBeenCalled();

    const log = vi.fn();
    projectOpener({ getWindow: () => null, reopen: () => Promise.reject(new Error('no display')), log })('x');
    await vi.waitFor(() => expect(log).toHaveBeenCalledWith('could not open the window: no display'));
  });
});
