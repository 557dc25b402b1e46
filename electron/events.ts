import { ipcEventContract, type IpcEventChannel, type IpcEventPayload } from '../common/ipc';
import { isAppUrl } from './app-origin';

/** The part of a window events are sent to (BrowserWindow in the app, a fake in tests). */
export interface EventTarget {
  isDestroyed(): boolean;
  webContents: { getURL(): string; send(channel: string, payload: unknown): void };
}

/**
 * Sends a main → renderer event of the contract (common/ipc.ts) to the main window: the payload is checked
 * first (a bug in main must not reach the page), and nothing is sent to a window that is gone or that does not
 * show app://vibeeval. Returns whether it was sent.
 */
export function sendEvent<C extends IpcEventChannel>(target: EventTarget | null, channel: C, payload: IpcEventPayload<C>): boolean {
  const parsed = ipcEventContract[channel].safeParse(payload);
  if (!parsed.success) {
    console.error(`vibeeval: ${channel} event outside the contract: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
    return false;
  }
  if (!target || target.isDestroyed() || !isAppUrl(target.webContents.getURL())) return false;
  target.webContents.send(channel, parsed.data);
  return true;
}
