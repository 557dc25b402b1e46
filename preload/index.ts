import { contextBridge, ipcRenderer } from 'electron';
import { ipcContract, type IpcChannel, type IpcRequest, type IpcResponse } from '../common/ipc';
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

const bridge: DesktopBridge = {
  kind: 'desktop',
  app: {
    info: () => call('vibeeval:app:get-info'),
  },
  vault: {
    getItem: (key) => call('vibeeval:vault:get-item', key),
    setItem: (key, value) => call('vibeeval:vault:set-item', key, value),
    removeItem: (key) => call('vibeeval:vault:remove-item', key),
  },
  shell: {
    openExternal: (url) => call('vibeeval:shell:open-external', url),
  },
  reports: {
    open: (url) => call('vibeeval:reports:open', url),
  },
};

contextBridge.exposeInMainWorld('vibeeval', bridge);
