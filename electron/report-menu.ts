import { writeFile } from 'node:fs/promises';
import { dialog, Menu, type BrowserWindow } from 'electron';
import type { ApplicationMenu } from './app-menu';
import { reportMenuItems, saveReportAsPdf, type ReportMenuItem } from './report-actions';
import { openExternalSafely } from './shell';

/** The Electron side of a report window's actions (the logic is in report-actions.ts, tested there). */
function reportItemsFor(window: BrowserWindow, reportUrl: string): ReportMenuItem[] {
  return reportMenuItems({
    saveAsPdf: () => {
      void saveReportAsPdf({
        title: () => window.getTitle(),
        choosePath: async (defaultName) => {
          const result = await dialog.showSaveDialog(window, { defaultPath: defaultName, filters: [{ name: 'PDF', extensions: ['pdf'] }] });
          return result.canceled ? undefined : result.filePath;
        },
        printToPdf: () => window.webContents.printToPDF({ printBackground: true }),
        writeFile: (filePath, data) => writeFile(filePath, data),
      }).catch((error: unknown) => console.error(`vibeeval: could not save the report as PDF: ${(error as Error).message}`));
    },
    openInBrowser: () => void openExternalSafely(reportUrl),
  });
}

/**
 * Gives each report window its actions: on Windows and Linux a File menu of the window's own (shown with Alt, as
 * the window hides its menu bar); on macOS, where windows have no menus, the application menu's File menu while
 * the report window is focused.
 */
export function createReportMenuAttacher(applicationMenu: ApplicationMenu, platform: NodeJS.Platform = process.platform) {
  return (window: BrowserWindow, reportUrl: string): void => {
    const items = reportItemsFor(window, reportUrl);
    if (platform !== 'darwin') {
      window.setMenu(Menu.buildFromTemplate([{ label: 'File', submenu: items }]));
      return;
    }
    window.on('focus', () => applicationMenu.showReportItems(window, items));
    window.on('blur', () => applicationMenu.hideReportItems(window));
    window.on('closed', () => applicationMenu.hideReportItems(window));
  };
}
