import { contextBridge, ipcRenderer } from 'electron';
import { ipcContract, ipcEventContract, isIpcEventChannel, type IpcChannel, type IpcEventChannel, type IpcEventPayload, type IpcRequest, type IpcResponse } from '../common/ipc';
import type { DesktopBridge } from './bridge';

/**
 * The bridge the renderer sees as `window.vibeeval`. Sandboxed preload: this file is bundled with zod
 * into one CommonJS file and may require nothing but `electron`.
 */

/** The issues of a failed parse, without the values (vault values are secrets). */
function describeIssues(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): string {
  return issues.map((issue) => `${issue.path.length > 0 ? issue.path.map(String).join('.') : '(arguments)'}: ${issue.message}`).join('; ');
}

/** Invokes a contract channel: arguments checked before they leave, the answer checked when it arrives. */
async function call<C extends IpcChannel>(channel: C, ...args: IpcRequest<C>): Promise<IpcResponse<C>> {
  const { request, response } = ipcContract[channel];
  const parsedArgs = request.safeParse(args);
  if (!parsedArgs.success) throw new TypeError(`${channel}: invalid arguments: ${describeIssues(parsedArgs.error.issues)}`);
  const result: unknown = await ipcRenderer.invoke(channel, ...parsedArgs.data);
  const parsedResult = response.safeParse(result);
  if (!parsedResult.success) throw new TypeError(`${channel}: unexpected response from the main process`);
  return parsedResult.data as IpcResponse<C>;
}

/**
 * Subscribes to one main → renderer event of the contract. The listener gets the checked payload only, never
 * Electron's event object (it would hand the page the sender); a payload outside the contract is dropped.
 */
function subscribe<C extends IpcEventChannel>(channel: C, listener: (payload: IpcEventPayload<C>) => void): () => void {
  if (typeof channel !== 'string' || !isIpcEventChannel(channel)) throw new TypeError(`unknown event channel`);
  if (typeof listener !== 'function') throw new TypeError(`${channel}: the listener must be a function`);
  const onMessage = (_event: unknown, payload: unknown) => {
    const parsed = ipcEventContract[channel].safeParse(payload);
    if (parsed.success) listener(parsed.data as IpcEventPayload<C>);
    else console.warn(`${channel}: dropped an event outside the contract`);
  };
  ipcRenderer.on(channel, onMessage);
  return () => void ipcRenderer.removeListener(channel, onMessage);
}

const bridge: DesktopBridge = {
  kind: 'desktop',
  app: {
    info: () => call('vibeeval:app:get-info'),
    relaunch: () => call('vibeeval:app:relaunch'),
    takeNotices: () => call('vibeeval:app:take-notices'),
  },
  settings: {
    get: () => call('vibeeval:settings:get'),
    setNotifications: (enabled) => call('vibeeval:settings:set-notifications', enabled),
    setServer: (choice) => call('vibeeval:settings:set-server', choice),
  },
  vault: {
    getItem: (key) => call('vibeeval:vault:get-item', key),
    setItem: (key, value) => call('vibeeval:vault:set-item', key, value),
    removeItem: (key) => call('vibeeval:vault:remove-item', key),
  },
  shell: {
    openExternal: (url) => call('vibeeval:shell:open-external', url),
  },
  workspace: {
    select: (id) => call('vibeeval:workspace:select', id),
  },
  reports: {
    open: (url) => call('vibeeval:reports:open', url),
  },
  auth: {
    startGoogle: () => call('vibeeval:auth:start-google'),
  },
  browser: {
    show: (url, bounds) => call('vibeeval:browser:show', { url, bounds }),
    navigate: (url) => call('vibeeval:browser:navigate', { url }),
    back: () => call('vibeeval:browser:back'),
    forward: () => call('vibeeval:browser:forward'),
    reload: () => call('vibeeval:browser:reload'),
    setBounds: (bounds) => call('vibeeval:browser:set-bounds', bounds),
    hide: () => call('vibeeval:browser:hide'),
  },
  events: { subscribe },
};

contextBridge.exposeInMainWorld('vibeeval', bridge);
