import type { BrowserWindow, IpcMainInvokeEvent } from 'electron';
import { beforeEach, describe, expect, it, vi } from 'vitest';

type Listener = (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown;
const handlers = new Map<string, Listener>();

// Only the electron module is replaced: ipcMain records the listeners the wrapper registers.
vi.mock('electron', () => ({
  ipcMain: {
    handle: (channel: string, listener: Listener) => handlers.set(channel, listener),
    removeHandler: (channel: string) => handlers.delete(channel),
  },
}));

const { createIpcRegistrar, isTrustedSender, IpcRefusedError } = await import('./ipc');

interface FakeFrame {
  url: string;
  parent: FakeFrame | null;
  processId: number;
  frameToken: string;
}

let nextId = 1;
function fakeWindow(url = 'app://vibeeval/dashboard') {
  const id = nextId++;
  const mainFrame: FakeFrame = { url, parent: null, processId: 4, frameToken: `main-token-${id}` };
  const webContents = { id, mainFrame };
  const window = { isDestroyed: () => false, webContents } as unknown as BrowserWindow;
  return { window, webContents, mainFrame };
}

function eventFrom(sender: unknown, senderFrame: FakeFrame | null): IpcMainInvokeEvent {
  return { sender, senderFrame } as unknown as IpcMainInvokeEvent;
}

function invoke(channel: string, event: IpcMainInvokeEvent, ...args: unknown[]): Promise<unknown> {
  const listener = handlers.get(channel);
  if (!listener) throw new Error(`no handler for ${channel}`);
  return Promise.resolve(listener(event, ...args));
}

describe('the IPC wrapper', () => {
  beforeEach(() => handlers.clear());

  it('refuses to register a channel that is not in the contract', () => {
    const ipc = createIpcRegistrar(() => null);
    expect(() => ipc.handle('vibeeval:fs:read-file' as 'vibeeval:app:get-info', () => undefined as never)).toThrow(/not in the contract/);
    expect(() => ipc.handle('__proto__' as 'vibeeval:app:get-info', () => undefined as never)).toThrow(/not in the contract/);
    expect(handlers.size).toBe(0);
  });

  it('answers our main window with the parsed arguments and the checked response', async () => {
    const { window, webContents, mainFrame } = fakeWindow();
    const getItem = vi.fn(async (key: string) => `value of ${key}`);
    createIpcRegistrar(() => window).handle('vibeeval:vault:get-item', getItem);

    await expect(invoke('vibeeval:vault:get-item', eventFrom(webContents, mainFrame), 'sb-auth-token')).resolves.toBe('value of sb-auth-token');
    expect(getItem).toHaveBeenCalledWith('sb-auth-token');
  });

  it('refuses a sender that is not our main window', async () => {
    const { window, webContents, mainFrame } = fakeWindow();
    const handler = vi.fn(() => null);
    createIpcRegistrar(() => window).handle('vibeeval:vault:get-item', handler);
    const other = fakeWindow();
    const subframe: FakeFrame = { url: 'app://vibeeval/', parent: mainFrame, processId: 4, frameToken: 'child-token' };
    const elsewhere = fakeWindow('https://evil.example/');

    const refused = [
      eventFrom(other.webContents, other.mainFrame), // another window
      eventFrom(other.webContents, mainFrame), // another web contents claiming our frame
      eventFrom(webContents, null), // frame gone (navigated away or destroyed)
      eventFrom(webContents, subframe), // an iframe inside our page
      eventFrom(webContents, { ...mainFrame, frameToken: 'stale-document' }), // not the current main frame
    ];
    for (const event of refused) {
      await expect(invoke('vibeeval:vault:get-item', event, 'key')).rejects.toThrow(IpcRefusedError);
    }
    // Our own window, but showing a page that is not the app.
    createIpcRegistrar(() => elsewhere.window).handle('vibeeval:vault:get-item', handler);
    await expect(invoke('vibeeval:vault:get-item', eventFrom(elsewhere.webContents, elsewhere.mainFrame), 'key')).rejects.toThrow(/not the vibeeval window/);
    // No window at all (closed).
    createIpcRegistrar(() => null).handle('vibeeval:vault:get-item', handler);
    await expect(invoke('vibeeval:vault:get-item', eventFrom(webContents, mainFrame), 'key')).rejects.toThrow(IpcRefusedError);

    expect(handler).not.toHaveBeenCalled();
  });

  it('refuses arguments that do not match the request schema, without echoing them', async () => {
    const { window, webContents, mainFrame } = fakeWindow();
    const setItem = vi.fn(async () => undefined);
    createIpcRegistrar(() => window).handle('vibeeval:vault:set-item', setItem);
    const event = eventFrom(webContents, mainFrame);

    const invalid: unknown[][] = [
      [], // missing both
      ['key'], // missing the value
      ['key', 42], // value not a string
      ['../etc/passwd', 'secret-value'], // key outside [\w.:-]
      ['', 'secret-value'], // empty key
      ['key', 'x'.repeat(64 * 1024 + 1)], // value over 64 KiB
      ['key', 'secret-value', 'extra'], // too many arguments
      [{ toString: () => 'key' }, 'secret-value'], // not a string at all
    ];
    for (const args of invalid) {
      const error = await invoke('vibeeval:vault:set-item', event, ...args).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(IpcRefusedError);
      expect((error as Error).message).toMatch(/invalid arguments/);
      expect((error as Error).message).not.toContain('secret-value');
    }
    expect(setItem).not.toHaveBeenCalled();
  });

  it('does not pass a response outside the contract back to the renderer', async () => {
    const { window, webContents, mainFrame } = fakeWindow();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    createIpcRegistrar(() => window).handle('vibeeval:shell:open-external', (() => 'yes') as never);

    await expect(invoke('vibeeval:shell:open-external', eventFrom(webContents, mainFrame), 'https://example.com')).rejects.toThrow(/internal error/);
    expect(errors).toHaveBeenCalledOnce();
    errors.mockRestore();
  });

  it('registers each channel once (a second registration replaces the first)', async () => {
    const { window, webContents, mainFrame } = fakeWindow();
    const ipc = createIpcRegistrar(() => window);
    ipc.handle('vibeeval:shell:open-external', () => false);
    ipc.handle('vibeeval:shell:open-external', () => true);
    await expect(invoke('vibeeval:shell:open-external', eventFrom(webContents, mainFrame), 'https://example.com')).resolves.toBe(true);
  });
});

describe('isTrustedSender', () => {
  it('accepts only the main frame of the main window on app://vibeeval', () => {
    const { window, webContents, mainFrame } = fakeWindow('app://vibeeval/projects');
    expect(isTrustedSender(eventFrom(webContents, mainFrame), window)).toBe(true);
    expect(isTrustedSender(eventFrom(webContents, { ...mainFrame, url: 'app://evil/' }), window)).toBe(false);
    expect(isTrustedSender(eventFrom(webContents, { ...mainFrame, url: 'file:///etc/passwd' }), window)).toBe(false);
    const destroyed = { ...window, isDestroyed: () => true } as unknown as BrowserWindow;
    expect(isTrustedSender(eventFrom(webContents, mainFrame), destroyed)).toBe(false);
  });
});
