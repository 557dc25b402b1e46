import { writeFile } from 'node:fs/promises';
import { dialog, Menu, type BrowserWindow } from 'electron';
import { reportMenuItems, saveReportAsPdf } from './report-actions';
import { openExternalSafely } from './shell';

/**
 * The Electron side of the report actions: a File menu of the report window's own on Windows and Linux
 * (shown with Alt, as the window hides its menu bar). The logic is in report-actions.ts, tested there.
 */
export function attachReportMenu(window: BrowserWindow, reportUrl: string): void {
  const items = reportMenuItems({
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
  // macOS has no window menus: there the application menu should carry these items for the focused report window.
  if (process.platform !== 'darwin') window.setMenu(Menu.buildFromTemplate([{ label: 'File', submenu: items }]));
}
