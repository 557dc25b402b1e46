import { describe, expect, it, vi } from 'vitest';
import { ipcContract, type IpcChannel } from '../common/ipc';
import { registerAppSettingsHandlers, relaunchApp } from './app-settings-ipc';
import type { IpcRegistrar } from './ipc';
import { createNoticeQueue, KEYCHAIN_FALLBACK_NOTICE } from './notices';
import { createSettings, type FetchLike } from './settings';

/** A registrar that checks arguments and answers with the contract, as the real one does (ipc.test.ts). */
function contractRegistrar() {
  const handlers = new Map<string, (...args: unknown[]) => unknown>();
  const ipc: IpcRegistrar = { handle: (channel, handler) => void handlers.set(channel, handler as (...args: unknown[]) => unknown) };
  const invoke = async (channel: IpcChannel, ...args: unknown[]) => {
    const { request, response } = ipcContract[channel];
    const handler = handlers.get(channel);
    if (!handler) throw new Error(`no handler for ${channel}`);
    return response.parse(await handler(...request.parse(args)));
  };
  return { ipc, invoke, handlers };
}

const healthy: FetchLike = async () => ({
  ok: true,
  status: 200,
  headers: { get: (name: string) => (name === 'access-control-allow-origin' ? 'app://vibeeval' : null) },
  json: async () => ({ status: 'ok', version: '1', database: { kind: 'postgres', state: 'up' } }),
});
const down: FetchLike = () => Promise.reject(new TypeError('fetch failed'));

function setUp(fetchImpl: FetchLike = healthy) {
  const backend = { store: {} as Record<string, unknown> };
  const settings = createSettings(backend, fetchImpl);
  const notices = createNoticeQueue({ send: () => true });
  const app = { relaunch: vi.fn(), quit: vi.fn() };
  const { ipc, invoke, handlers } = contractRegistrar();
  registerAppSettingsHandlers(ipc, { settings, activeServerOrigin: 'http://127.0.0.1:5000', notices, app });
  return { backend, invoke, handlers, app, notices };
}

describe('desktop settings handlers', () => {
  it('registers only contract channels', () => {
    const { handlers } = setUp();
    expect([...handlers.keys()].sort()).toEqual([
      'vibeeval:app:relaunch',
      'vibeeval:app:take-notices',
      'vibeeval:settings:get',
      'vibeeval:settings:set-notifications',
      'vibeeval:settings:set-server',
    ]);
  });

  it('reads the settings with the origin in use, and saves the notification choice', async () => {
    const { invoke, backend } = setUp();
    expect(await invoke('vibeeval:settings:get')).toEqual({
      desktopNotifications: true,
      server: { mode: 'embedded' },
      activeServerOrigin: 'http://127.0.0.1:5000',
      restartRequired: false,
    });
    await invoke('vibeeval:settings:set-notifications', false);
    expect(backend.store.desktopNotifications).toBe(false);
    expect(await invoke('vibeeval:settings:get')).toMatchObject({ desktopNotifications: false });
    await expect(invoke('vibeeval:settings:set-notifications', 'no')).rejects.toThrow();
    // keychainNoticeShown is main's own business: not shown to the page.
    expect(Object.keys((await invoke('vibeeval:settings:get')) as object)).not.toContain('keychainNoticeShown');
  });

  it('saves a team server that passes its check and says a restart applies it', async () => {
    const { invoke } = setUp();
    expect(await invoke('vibeeval:settings:set-server', { mode: 'team', url: 'https://team.example.com' })).toEqual({
      ok: true,
      restartRequired: true,
    });
    expect(await invoke('vibeeval:settings:get')).toMatchObject({
      server: { mode: 'team', url: 'https://team.example.com' },
      activeServerOrigin: 'http://127.0.0.1:5000',
      restartRequired: true,
    });
    // Back to the server this run uses: nothing to restart for.
    await invoke('vibeeval:settings:set-server', { mode: 'embedded' });
    expect(await invoke('vibeeval:settings:get')).toMatchObject({ restartRequired: false });
  });

  it('compares with the server this run started with (a team server), by origin', async () => {
    const backend = { store: { server: { mode: 'team', url: 'https://team.example.com' } } as Record<string, unknown> };
    const settings = createSettings(backend, healthy);
    const { ipc, invoke } = contractRegistrar();
    const app = { relaunch: vi.fn(), quit: vi.fn() };
    registerAppSettingsHandlers(ipc, { settings, activeServerOrigin: 'https://team.example.com', notices: createNoticeQueue({ send: () => true }), app });
    expect(await invoke('vibeeval:settings:get')).toMatchObject({ restartRequired: false });
    await invoke('vibeeval:settings:set-server', { mode: 'embedded' });
    expect(await invoke('vibeeval:settings:get')).toMatchObject({ restartRequired: true });
    await invoke('vibeeval:settings:set-server', { mode: 'team', url: 'https://team.example.com/' });
    expect(await invoke('vibeeval:settings:get')).toMatchObject({ restartRequired: false });
  });

  it('answers why a team server is refused, and keeps the saved choice', async () => {
    const { invoke } = setUp(down);
    expect(await invoke('vibeeval:settings:set-server', { mode: 'team', url: 'https://team.example.com' })).toEqual({
      ok: false,
      message: 'The team server could not be reached. Check the address and your network.',
    });
    expect(await invoke('vibeeval:settings:get')).toMatchObject({ server: { mode: 'embedded' } });
    await expect(invoke('vibeeval:settings:set-server', { mode: 'team', url: 'ftp://team.example.com' })).rejects.toThrow();
  });

  it('relaunches: a new instance is scheduled, then this one quits (through before-quit)', async () => {
    const { invoke, app } = setUp();
    await invoke('vibeeval:app:relaunch');
    expect(app.relaunch).toHaveBeenCalledOnce();
    expect(app.quit).toHaveBeenCalledOnce();
    expect(app.relaunch.mock.invocationCallOrder[0]).toBeLessThan(app.quit.mock.invocationCallOrder[0]!);
  });

  it('hands the queued notices over once', async () => {
    const { invoke, notices } = setUp();
    notices.push(KEYCHAIN_FALLBACK_NOTICE);
    expect(await invoke('vibeeval:app:take-notices')).toEqual([KEYCHAIN_FALLBACK_NOTICE]);
    expect(await invoke('vibeeval:app:take-notices')).toEqual([]);
  });
});

describe('relaunchApp', () => {
  it('schedules the relaunch before quitting', () => {
    const calls: string[] = [];
    relaunchApp({ relaunch: () => calls.push('relaunch'), quit: () => calls.push('quit') });
    expect(calls).toEqual(['relaunch', 'quit']);
  });
});
