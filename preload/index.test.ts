import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { DesktopBridge } from './bridge';

const exposed = new Map<string, unknown>();
const invoke = vi.fn<(channel: string, ...args: unknown[]) => Promise<unknown>>();
type Listener = (event: unknown, payload: unknown) => void;
const listeners = new Map<string, Set<Listener>>();

vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => exposed.set(key, api) },
  ipcRenderer: {
    invoke: (channel: string, ...args: unknown[]) => invoke(channel, ...args),
    on: (channel: string, listener: Listener) => listeners.set(channel, (listeners.get(channel) ?? new Set()).add(listener)),
    removeListener: (channel: string, listener: Listener) => listeners.get(channel)?.delete(listener),
  },
}));

/** What main's webContents.send would deliver; the event object stands for Electron's (it holds the sender). */
function emit(channel: string, payload: unknown) {
  for (const listener of listeners.get(channel) ?? []) listener({ sender: 'ipcRenderer' }, payload);
}

await import('./index');
const bridge = exposed.get('vibeeval') as DesktopBridge;

describe('the preload bridge', () => {
  beforeEach(() => invoke.mockReset());

  it('exposes task-level methods only, no raw invoke', () => {
    expect([...exposed.keys()]).toEqual(['vibeeval']);
    expect(bridge.kind).toBe('desktop');
    expect(Object.keys(bridge).sort()).toEqual(['app', 'auth', 'browser', 'events', 'kind', 'reports', 'settings', 'shell', 'vault', 'workspace']);
    expect(Object.keys(bridge.app).sort()).toEqual(['info', 'relaunch', 'takeNotices']);
    expect(Object.keys(bridge.settings).sort()).toEqual(['get', 'setNotifications', 'setServer']);
    expect(Object.keys(bridge.vault).sort()).toEqual(['getItem', 'removeItem', 'setItem']);
    expect(JSON.stringify(Object.keys(bridge))).not.toMatch(/invoke|send|ipc/i);
  });

  it('invokes the contract channel with checked arguments and returns the checked answer', async () => {
    invoke.mockResolvedValueOnce({ serverOrigin: 'http://127.0.0.1:5000', version: '1.0.0', platform: 'linux' });
    await expect(bridge.app.info()).resolves.toEqual({ serverOrigin: 'http://127.0.0.1:5000', version: '1.0.0', platform: 'linux' });
    expect(invoke).toHaveBeenLastCalledWith('vibeeval:app:get-info');

    invoke.mockResolvedValueOnce('session');
    await expect(bridge.vault.getItem('sb-auth-token')).resolves.toBe('session');
    expect(invoke).toHaveBeenLastCalledWith('vibeeval:vault:get-item', 'sb-auth-token');

    invoke.mockResolvedValueOnce(undefined);
    await bridge.vault.setItem('sb-auth-token', '{"a":1}');
    expect(invoke).toHaveBeenLastCalledWith('vibeeval:vault:set-item', 'sb-auth-token', '{"a":1}');

    invoke.mockResolvedValueOnce(true);
    await expect(bridge.shell.openExternal('https://example.com')).resolves.toBe(true);
    expect(invoke).toHaveBeenLastCalledWith('vibeeval:shell:open-external', 'https://example.com');

    invoke.mockResolvedValueOnce(true);
    await expect(bridge.reports.open('http://127.0.0.1:5000/report-preview?signed_url=x')).resolves.toBe(true);
    expect(invoke).toHaveBeenLastCalledWith('vibeeval:reports:open', 'http://127.0.0.1:5000/report-preview?signed_url=x');

    invoke.mockResolvedValueOnce(true);
    await expect(bridge.auth.startGoogle()).resolves.toBe(true);
    expect(invoke).toHaveBeenLastCalledWith('vibeeval:auth:start-google');
    invoke.mockResolvedValueOnce('yes');
    await expect(bridge.auth.startGoogle()).rejects.toThrow(/unexpected response/);
  });

  it('refuses invalid arguments before anything is sent', async () => {
    await expect(bridge.vault.getItem('../../etc/passwd')).rejects.toThrow(/invalid arguments/);
    await expect(bridge.vault.setItem('key', 42 as unknown as string)).rejects.toThrow(/invalid arguments/);
    await expect(bridge.shell.openExternal('x'.repeat(5000))).rejects.toThrow(/invalid arguments/);
    await expect(bridge.reports.open('javascript:alert(1)')).rejects.toThrow(/invalid arguments/);
    await expect(bridge.reports.open('file:///etc/passwd')).rejects.toThrow(/invalid arguments/);
    expect(invoke).not.toHaveBeenCalled();
  });

  it('refuses an answer outside the contract', async () => {
    invoke.mockResolvedValueOnce({ serverOrigin: 'not a url', version: '1', platform: 'linux' });
    await expect(bridge.app.info()).rejects.toThrow(/unexpected response/);
    invoke.mockResolvedValueOnce(42);
    await expect(bridge.vault.getItem('key')).rejects.toThrow(/unexpected response/);
  });

  it('passes checked event payloads to the listener, never the Electron event, and unsubscribes', () => {
    const seen: unknown[] = [];
    const stop = bridge.events.subscribe('vibeeval:event:navigate', (payload) => seen.push(payload));
    emit('vibeeval:event:navigate', { path: '/dashboard/projects/1' });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    emit('vibeeval:event:navigate', { path: 'https://evil.example/' });
    emit('vibeeval:event:navigate', 'not an object');
    warn.mockRestore();
    stop();
    emit('vibeeval:event:navigate', { path: '/dashboard' });
    expect(seen).toEqual([{ path: '/dashboard/projects/1' }]);
    expect(listeners.get('vibeeval:event:navigate')?.size).toBe(0);
  });

  it('drives the live browser through its channels with checked arguments', async () => {
    const bounds = { x: 10, y: 200, width: 800, height: 500 };
    invoke.mockResolvedValueOnce(true);
    await expect(bridge.browser.show('https://example.com/', bounds)).resolves.toBe(true);
    expect(invoke).toHaveBeenLastCalledWith('vibeeval:browser:show', { url: 'https://example.com/', bounds });
    invoke.mockResolvedValueOnce(false);
    await expect(bridge.browser.navigate('https://example.org/')).resolves.toBe(false);
    expect(invoke).toHaveBeenLastCalledWith('vibeeval:browser:navigate', { url: 'https://example.org/' });
    for (const [method, channel] of [
      ['back', 'vibeeval:browser:back'],
      ['forward', 'vibeeval:browser:forward'],
      ['reload', 'vibeeval:browser:reload'],
      ['hide', 'vibeeval:browser:hide'],
    ] as const) {
      invoke.mockResolvedValueOnce(undefined);
      await bridge.browser[method]();
      expect(invoke).toHaveBeenLastCalledWith(channel);
    }
    invoke.mockResolvedValueOnce(undefined);
    await bridge.browser.setBounds(bounds);
    expect(invoke).toHaveBeenLastCalledWith('vibeeval:browser:set-bounds', bounds);
  });

  it('refuses live browser arguments outside the contract before anything is sent', async () => {
    const bounds = { x: 0, y: 0, width: 100, height: 100 };
    await expect(bridge.browser.show('file:///etc/passwd', bounds)).rejects.toThrow(/invalid arguments/);
    await expect(bridge.browser.show('javascript:alert(1)', bounds)).rejects.toThrow(/invalid arguments/);
    await expect(bridge.browser.show('https://user:pw@example.com/', bounds)).rejects.toThrow(/invalid arguments/);
    await expect(bridge.browser.navigate('data:text/html,x')).rejects.toThrow(/invalid arguments/);
    await expect(bridge.browser.setBounds({ ...bounds, width: 10.5 })).rejects.toThrow(/invalid arguments/);
    await expect(bridge.browser.setBounds({ ...bounds, height: -1 })).rejects.toThrow(/invalid arguments/);
    await expect(bridge.browser.setBounds({ x: 0, y: 0 } as never)).rejects.toThrow(/invalid arguments/);
    expect(invoke).not.toHaveBeenCalled();
  });

  it('passes checked live browser states, drops others', () => {
    const seen: unknown[] = [];
    const stop = bridge.events.subscribe('vibeeval:event:browser', (state) => seen.push(state));
    const state = { url: 'https://example.com/', title: 'Example', loading: false, canGoBack: true, canGoForward: false };
    emit('vibeeval:event:browser', state);
    emit('vibeeval:event:browser', { ...state, error: 'example.com cannot be reached: it refused the connection.' });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    emit('vibeeval:event:browser', { ...state, loading: 'yes' });
    emit('vibeeval:event:browser', { url: 'https://example.com/' });
    warn.mockRestore();
    stop();
    expect(seen).toEqual([state, { ...state, error: 'example.com cannot be reached: it refused the connection.' }]);
  });

  it('reads and saves the desktop settings, relaunches and takes notices through their channels', async () => {
    const settings = {
      desktopNotifications: true,
      server: { mode: 'embedded' },
      activeServerOrigin: 'http://127.0.0.1:5000',
      restartRequired: false,
    };
    invoke.mockResolvedValueOnce(settings);
    await expect(bridge.settings.get()).resolves.toEqual(settings);
    expect(invoke).toHaveBeenLastCalledWith('vibeeval:settings:get');

    invoke.mockResolvedValueOnce(undefined);
    await bridge.settings.setNotifications(false);
    expect(invoke).toHaveBeenLastCalledWith('vibeeval:settings:set-notifications', false);

    invoke.mockResolvedValueOnce({ ok: false, message: 'The team server could not be reached.' });
    await expect(bridge.settings.setServer({ mode: 'team', url: 'https://team.example.com' })).resolves.toEqual({
      ok: false,
      message: 'The team server could not be reached.',
    });
    expect(invoke).toHaveBeenLastCalledWith('vibeeval:settings:set-server', { mode: 'team', url: 'https://team.example.com' });

    invoke.mockResolvedValueOnce(undefined);
    await bridge.app.relaunch();
    expect(invoke).toHaveBeenLastCalledWith('vibeeval:app:relaunch');

    const notice = { kind: 'keychain-fallback', title: 'System keychain unavailable', message: 'Kept encrypted.' };
    invoke.mockResolvedValueOnce([notice]);
    await expect(bridge.app.takeNotices()).resolves.toEqual([notice]);
    expect(invoke).toHaveBeenLastCalledWith('vibeeval:app:take-notices');
  });

  it('tells main the workspace the app shows, a workspace id or null, and nothing else', async () => {
    const team = '22222222-2222-4222-8222-222222222222';
    invoke.mockResolvedValueOnce(undefined);
    await bridge.workspace.select(team);
    expect(invoke).toHaveBeenLastCalledWith('vibeeval:workspace:select', team);
    invoke.mockResolvedValueOnce(undefined);
    await bridge.workspace.select(null);
    expect(invoke).toHaveBeenLastCalledWith('vibeeval:workspace:select', null);
    const calls = invoke.mock.calls.length;
    await expect(bridge.workspace.select('../projects')).rejects.toThrow(/invalid arguments/);
    expect(invoke.mock.calls.length).toBe(calls);
  });

  it('refuses settings outside the contract in both directions', async () => {
    await expect(bridge.settings.setNotifications('yes' as unknown as boolean)).rejects.toThrow(/invalid arguments/);
    await expect(bridge.settings.setServer({ mode: 'team', url: 'javascript:alert(1)' })).rejects.toThrow(/invalid arguments/);
    await expect(bridge.settings.setServer({ mode: 'team', url: 'https://team.example.com/sub' })).rejects.toThrow(/invalid arguments/);
    expect(invoke).not.toHaveBeenCalled();
    invoke.mockResolvedValueOnce({ ok: true });
    await expect(bridge.settings.setServer({ mode: 'embedded' })).rejects.toThrow(/unexpected response/);
    invoke.mockResolvedValueOnce([{ kind: 'other', title: 't', message: 'm' }]);
    await expect(bridge.app.takeNotices()).rejects.toThrow(/unexpected response/);
  });

  it('refuses channels outside the event contract', () => {
    expect(() => bridge.events.subscribe('vibeeval:vault:get-item' as never, () => undefined)).toThrow(/unknown event channel/);
    expect(() => bridge.events.subscribe('vibeeval:event:menu', 'x' as never)).toThrow(/listener/);
  });
});
