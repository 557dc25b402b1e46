import { BrowserWindow, ipcMain, screen, type Rectangle } from 'electron';
import { ISOLATED_WEB_PREFERENCES } from './web-preferences';
import { z } from 'zod';

/** The main window's last position and size, as kept in `window-state.json` under the user-data folder. */
const windowStateSchema = z.object({
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int().min(400).max(20_000),
  height: z.number().int().min(300).max(20_000),
  maximized: z.boolean(),
});
type WindowState = z.infer<typeof windowStateSchema>;

interface StateStore {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
}

const STATE_KEY = 'mainWindow';
const DEFAULT_SIZE = { width: 1280, height: 840 };

let mainWindow: BrowserWindow | null = null;

/** The main window, or null when it is not open. */
export function getMainWindow(): BrowserWindow | null {
  return mainWindow && !mainWindow.isDestroyed() ? mainWindow : null;
}

/** Brings the main window to the front (a second instance was started, the dock icon was clicked). */
export function focusMainWindow(): void {
  const window = getMainWindow();
  if (!window) return;
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
}

/** electron-store is ESM-only: imported on demand from this CommonJS bundle. A broken file is no reason not to open. */
async function openStateStore(): Promise<StateStore | null> {
  try {
    const { default: Store } = await import('electron-store');
    const store = new Store({ name: 'window-state', clearInvalidConfig: true });
    // electron-store also answers a sync IPC message (its renderer-side stores ask main for paths). No
    // renderer uses it here, and the only IPC the renderer reaches is the contract's: take it down.
    ipcMain.removeAllListeners('electron-store-get-data');
    return store;
  } catch (error) {
    console.error(`vibeeval: window position is not remembered: ${(error as Error).message}`);
    return null;
  }
}

/** The saved bounds, dropping the position when it is no longer on any display (a monitor was unplugged). */
function restoredBounds(store: StateStore | null): { bounds: Partial<Rectangle>; maximized: boolean } {
  const saved = windowStateSchema.safeParse(store?.get(STATE_KEY));
  if (!saved.success) return { bounds: DEFAULT_SIZE, maximized: false };
  const { x, y, width, height, maximized } = saved.data;
  const visible = screen.getAllDisplays().some(({ workArea: area }) => {
    const overlapX = Math.min(x + width, area.x + area.width) - Math.max(x, area.x);
    const overlapY = Math.min(y + height, area.y + area.height) - Math.max(y, area.y);
    return overlapX >= 100 && overlapY >= 50;
  });
  return { bounds: visible ? { x, y, width, height } : { width, height }, maximized };
}

export interface MainWindowOptions {
  /** out/preload/index.js */
  preloadPath: string;
  /** What to load: app://vibeeval/ */
  url: string;
}

/** Creates and loads the main window; it shows itself once the first paint is ready. */
export async function createMainWindow(options: MainWindowOptions): Promise<BrowserWindow> {
  const store = await openStateStore();
  const { bounds, maximized } = restoredBounds(store);

  const window = new BrowserWindow({
    ...bounds,
    minWidth: 400,
    minHeight: 300,
    show: false,
    title: 'vibeeval',
    backgroundColor: '#ffffff',
    webPreferences: {
      preload: options.preloadPath,
      ...ISOLATED_WEB_PREFERENCES,
    },
  });
  mainWindow = window;

  window.once('ready-to-show', () => {
    if (maximized) window.maximize();
    window.show();
  });
  window.on('close', () => {
    const state: WindowState = { ...window.getNormalBounds(), maximized: window.isMaximized() };
    try {
      store?.set(STATE_KEY, state);
    } catch (error) {
      console.error(`vibeeval: could not save the window position: ${(error as Error).message}`);
    }
  });
  window.on('closed', () => {
    if (mainWindow === window) mainWindow = null;
  });

  try {
    await window.loadURL(options.url);
  } catch (error) {
    // The window shows the failure (e.g. the renderer's 404 page); an aborted load is not fatal to the app.
    console.error(`vibeeval: could not load ${options.url}: ${(error as Error).message}`);
    if (!window.isDestroyed() && !window.isVisible()) window.show();
  }
  return window;
}
