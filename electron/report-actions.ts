/**
 * Actions of a report window: 'Save as PDF' and 'Open in browser', through small interfaces (the save dialog,
 * printToPDF, file writing, the system browser) so they are tested without Electron.
 */

/** A file name from the report's title: characters no file system accepts removed, `.pdf` appended. */
export function pdfFileName(title: string): string {
  const cleaned = title
    .replace(/[<>:"/\\|?*]/g, ' ')
    .split('')
    .filter((char) => char.charCodeAt(0) >= 32)
    .join('')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '')
    .slice(0, 120)
    .trim();
  return ensurePdfExtension(cleaned || 'vibeeval report');
}

/** The path with a `.pdf` extension (case-insensitive), added when missing. */
export function ensurePdfExtension(filePath: string): string {
  return /\.pdf$/i.test(filePath) ? filePath : `${filePath}.pdf`;
}

export interface SavePdfDeps {
  /** The report window's title (the page's <title>). */
  title: () => string;
  /** The save dialog: the chosen path, or undefined when cancelled. */
  choosePath: (defaultName: string) => Promise<string | undefined>;
  /** webContents.printToPDF. */
  printToPdf: () => Promise<Uint8Array>;
  writeFile: (filePath: string, data: Uint8Array) => Promise<void>;
}

/** Saves the report as a PDF where the user chooses; the path written, or null when cancelled. */
export async function saveReportAsPdf(deps: SavePdfDeps): Promise<string | null> {
  const chosen = await deps.choosePath(pdfFileName(deps.title()));
  if (!chosen) return null;
  const target = ensurePdfExtension(chosen);
  await deps.writeFile(target, await deps.printToPdf());
  return target;
}

export interface ReportMenuItem {
  label: string;
  accelerator?: string;
  click: () => void;
}

/** The items of a report window's menu (Windows/Linux: the window's own menu; macOS: the application menu). */
export function reportMenuItems(actions: { saveAsPdf: () => void; openInBrowser: () => void }): ReportMenuItem[] {
  return [
    { label: 'Save as PDF…', accelerator: 'CmdOrCtrl+S', click: actions.saveAsPdf },
    { label: 'Open in Browser', click: actions.openInBrowser },
  ];
}
