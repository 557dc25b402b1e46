import { app, dialog, ipcMain, Menu } from 'electron';
import { installApplicationMenu, type ApplicationMenu } from './app-menu';
import { createSettings, type SettingsService } from './settings';
import { openSettingsStore } from './settings-store';
import { openExternalSafely } from './shell';
import { teamServerFailureChoice, teamServerFailureDialog, type TeamServerFailureChoice } from './start-server';
import { focusMainWindow, getMainWindow } from './windows';

/**
 * The Electron side of the settings, the application menu and the start-up question, kept out of main.ts
 * (wiring only). The logic is in settings.ts, settings-store.ts, app-menu.ts and start-server.ts, tested there.
 */

/** The `settings` electron-store file (ESM-only: imported on demand), without electron-store's own sync IPC. */
export async function openAppSettings(): Promise<SettingsService> {
  const backend = await openSettingsStore({
    load: async () => (await import('electron-store')).default,
    // electron-store answers a sync IPC message for renderer-side stores; none exists here (see windows.ts).
    afterOpen: () => ipcMain.removeAllListeners('electron-store-get-data'),
  });
  return createSettings(backend);
}

/** Installs the application menu (every platform); its commands go to the app window's page. */
export function setUpApplicationMenu(): ApplicationMenu {
  return installApplicationMenu({
    platform: process.platform,
    development: !app.isPackaged,
    appName: app.name,
    setApplicationMenu: (template) => Menu.setApplicationMenu(Menu.buildFromTemplate(template)),
    getMainWindow,
    focusMainWindow,
    openExternal: openExternalSafely,
    helpPages: [{ label: 'vibeeval Support', path: '/dashboard/support' }],
  });
}

/** Asks what to do when the saved team server can't be used at start. */
export async function askAboutTeamServer(origin: string, message: string): Promise<TeamServerFailureChoice> {
  const { response } = await dialog.showMessageBox(teamServerFailureDialog(origin, message));
  return teamServerFailureChoice(response);
}
