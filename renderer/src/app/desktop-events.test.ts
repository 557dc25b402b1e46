import { describe, expect, it, vi } from 'vitest';
import type { Bridge } from '../bridge';
import { listenToDesktopEvents, MENU_TEXTS, runMenuCommand } from './desktop-events';
import { createMenuCommands } from './menu-commands';

vi.mock('../ui/toaster', () => ({ notify: { info: vi.fn() } }));
const { notify } = await import('../ui/toaster');

/** A bridge whose main process is this test: `emit` plays an event from main. */
function fakeBridge(kept: unknown[] = []) {
  const listeners = new Map<string, (payload: never) => void>();
  const takeNotices = vi.fn(async () => kept.splice(0));
  const bridge = {
    subscribe: (channel: string, listener: (payload: never) => void) => {
      listeners.set(channel, listener);
      return () => listeners.delete(channel);
    },
    takeNotices,
  } as unknown as Bridge;
  const emit = (channel: string, payload: unknown) => listeners.get(channel)?.(payload as never);
  return { bridge, emit, listeners, takeNotices };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

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

  it('shows the notices main kept during boot, once, right after subscribing', async () => {
    vi.mocked(notify.info).mockClear();
    const kept = [{ kind: 'keychain-fallback', title: 'System keychain unavailable', message: 'Kept encrypted.' }];
    const { bridge, listeners, takeNotices } = fakeBridge(kept);
    const stop = listenToDesktopEvents(bridge, { navigate: vi.fn() });
    expect(listeners.has('vibeeval:event:notice')).toBe(true);
    expect(takeNotices).toHaveBeenCalledOnce();
    await flush();
    expect(notify.info).toHaveBeenCalledWith('System keychain unavailable', 'Kept encrypted.');
    stop();
    listenToDesktopEvents(bridge, { navigate: vi.fn() })();
    await flush();
    expect(notify.info).toHaveBeenCalledOnce();
  });

  it('hands menu commands to the page that carries them out', () => {
    const { bridge, emit } = fakeBridge();
    const commands = createMenuCommands();
    const newProject = vi.fn();
    commands.register('new-project', newProject);
    const navigate = vi.fn();
    listenToDesktopEvents(bridge, { navigate, commands });
    emit('vibeeval:event:menu', { command: 'new-project' });
    expect(newProject).toHaveBeenCalledOnce();
    expect(navigate).not.toHaveBeenCalled();
  });
});

describe('menu commands no page carries out', () => {
  it('New Project opens the projects page with its dialog', () => {
    const navigate = vi.fn();
    runMenuCommand('new-project', { navigate, commands: createMenuCommands() });
    expect(navigate).toHaveBeenCalledWith('/dashboard/projects', { menuCommand: 'new-project' });
  });

  it('Run Test says to open a project first', () => {
    vi.mocked(notify.info).mockClear();
    const navigate = vi.fn();
    runMenuCommand('run-test', { navigate, commands: createMenuCommands() });
    expect(navigate).not.toHaveBeenCalled();
    expect(notify.info).toHaveBeenCalledWith(MENU_TEXTS.openProjectFirst, MENU_TEXTS.openProjectFirstDetail);
  });
});
