import { ipcMain, type BrowserWindow, type IpcMainInvokeEvent } from 'electron';
import type { z } from 'zod';
import { ipcContract, isIpcChannel, type IpcChannel, type IpcRequest, type IpcResponse } from '../common/ipc';
import { isAppUrl } from './app-origin';

/** A handler for one contract channel: gets the parsed arguments, returns the contract's response. */
export type IpcHandler<C extends IpcChannel> = (...args: IpcRequest<C>) => IpcResponse<C> | Promise<IpcResponse<C>>;

/** Thrown back to the caller when a request is refused (unknown sender, invalid arguments). */
export class IpcRefusedError extends Error {
  override name = 'IpcRefusedError';
}

/**
 * Whether an invoke comes from our main window's top-level frame while it shows app://vibeeval: not a
 * subframe, not another window or web contents, not a page the window was somehow navigated to.
 */
export function isTrustedSender(event: Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>, mainWindow: BrowserWindow | null): boolean {
  const frame = event.senderFrame;
  if (!mainWindow || mainWindow.isDestroyed() || !frame) return false;
  const contents = mainWindow.webContents;
  const sameContents = event.sender === contents || (Number.isInteger(contents.id) && event.sender.id === contents.id);
  if (!sameContents) return false;
  const mainFrame = contents.mainFrame;
  const isMainFrame = frame === mainFrame || (frame.processId === mainFrame.processId && frame.frameToken === mainFrame.frameToken);
  return isMainFrame && frame.parent === null && isAppUrl(frame.url);
}

/** The issues of a failed parse, without the values (a vault value must not end up in an error message). */
function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(arguments)'}: ${issue.message}`).join('; ');
}

export interface IpcRegistrar {
  /** Registers the handler of a contract channel (replacing an earlier one). */
  handle<C extends IpcChannel>(channel: C, handler: IpcHandler<C>): void;
}

/**
 * The one way main registers IPC handlers (handle/invoke only). Each handler is wrapped so that a call
 * is answered only when it comes from `getMainWindow()`'s main frame on app://vibeeval, with arguments
 * that parse with the channel's request schema; what the handler returns must parse with its response
 * schema. Channels outside common/ipc.ts are refused at registration.
 */
export function createIpcRegistrar(getMainWindow: () => BrowserWindow | null): IpcRegistrar {
  return {
    handle(channel, handler) {
      if (!isIpcChannel(channel)) {
        throw new Error(`IPC channel '${String(channel)}' is not in the contract (common/ipc.ts)`);
      }
      const { request, response } = ipcContract[channel];
      // Loosened once here: the contract ties each channel to its schemas, TypeScript can't follow the union.
      const call = handler as (...args: unknown[]) => unknown;

      ipcMain.removeHandler(channel);
      ipcMain.handle(channel, async (event, ...args: unknown[]) => {
        if (!isTrustedSender(event, getMainWindow())) {
          throw new IpcRefusedError(`${channel}: refused, the sender is not the vibeeval window`);
        }
        const parsed = request.safeParse(args);
        if (!parsed.success) {
          throw new IpcRefusedError(`${channel}: invalid arguments: ${describeIssues(parsed.error)}`);
        }
        const result = await call(...parsed.data);
        const checked = response.safeParse(result);
        if (!checked.success) {
          // A bug in main, not in the caller: say so without echoing the value.
          console.error(`vibeeval: ${channel} returned a response outside the contract: ${describeIssues(checked.error)}`);
          throw new Error(`${channel}: internal error`);
        }
        return checked.data;
      });
    },
  };
}
