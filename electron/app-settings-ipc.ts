import type { IpcRegistrar } from './ipc';
import type { NoticeQueue } from './notices';
import type { ServerChoice } from '../common/desktop-settings';
import type { SettingsService } from './settings';

/** The part of Electron's `app` a relaunch needs. */
export interface RelaunchApp {
  relaunch(): void;
  quit(): void;
}

/**
 * Starts the app again: `relaunch` schedules the new instance for when this one exits, and quitting goes
 * through before-quit, so the embedded server still stops cleanly first.
 */
export function relaunchApp(app: RelaunchApp): void {
  app.relaunch();
  app.quit();
}

export interface AppSettingsIpcDeps {
  settings: Pick<SettingsService, 'get' | 'setDesktopNotifications' | 'setServer'>;
  /** The origin this run uses (embedded or team server). */
  activeServerOrigin: string;
  notices: Pick<NoticeQueue, 'take'>;
  app: RelaunchApp;
}

function sameServer(a: ServerChoice, b: ServerChoice): boolean {
  if (a.mode === 'embedded' || b.mode === 'embedded') return a.mode === b.mode;
  return new URL(a.url).origin === new URL(b.url).origin;
}

/**
 * Registers the desktop settings, relaunch and notice channels (common/ipc.ts). Call it once this run's server
 * is settled: the saved choice then is the one in use, and a later save differing from it needs a restart.
 */
export function registerAppSettingsHandlers(ipc: IpcRegistrar, deps: AppSettingsIpcDeps): void {
  const active = deps.settings.get().server;
  ipc.handle('vibeeval:settings:get', () => {
    const { desktopNotifications, server } = deps.settings.get();
    return { desktopNotifications, server, activeServerOrigin: deps.activeServerOrigin, restartRequired: !sameServer(server, active) };
  });
  ipc.handle('vibeeval:settings:set-notifications', (enabled) => deps.settings.setDesktopNotifications(enabled));
  ipc.handle('vibeeval:settings:set-server', (choice) => deps.settings.setServer(choice));
  ipc.handle('vibeeval:app:relaunch', () => relaunchApp(deps.app));
  ipc.handle('vibeeval:app:take-notices', () => deps.notices.take());
}
