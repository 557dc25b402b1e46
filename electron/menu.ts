import type { MenuItemConstructorOptions } from 'electron';
import { z } from 'zod';
import type { ReportMenuItem } from './report-actions';
import { parseWebUrl } from './shell';

/** What a menu item asks the renderer to do. */
export const menuActionSchema = z.enum(['new-project', 'run-test']);
export type MenuAction = z.infer<typeof menuActionSchema>;

export const MENU_ACCELERATORS = {
  'new-project': 'CmdOrCtrl+N',
  // CmdOrCtrl+R is Reload in development (and a browser habit); Enter reads as "go".
  'run-test': 'CmdOrCtrl+Enter',
} as const satisfies Record<MenuAction, string>;

export interface HelpLink {
  label: string;
  url: string;
}

/** A page of the app opened from the Help menu. */
export interface HelpPage {
  label: string;
  /** An in-app path, e.g. /dashboard/support */
  path: string;
}

export interface MenuOptions {
  platform: NodeJS.Platform;
  development: boolean;
  appName: string;
  /** Sends an action to the renderer. */
  onAction: (action: MenuAction) => void;
  /** Help menu entries; only http(s) URLs are kept. */
  helpLinks: readonly HelpLink[];
  /** Opens a URL in the system browser (openExternalSafely). */
  openExternal: (url: string) => unknown;
  /** Help menu entries that open a page of the app through `onNavigate`. */
  helpPages?: readonly HelpPage[];
  onNavigate?: (path: string) => void;
  /** The focused report window's actions (macOS: report windows have no menu of their own). */
  reportItems?: readonly ReportMenuItem[];
}

/** The app's Preferences page (macOS: app menu › Settings…, the platform's place and shortcut for it). */
export const PREFERENCES_PATH = '/dashboard/preferences';

function appMenu(options: MenuOptions): MenuItemConstructorOptions {
  return {
    label: options.appName,
    submenu: [
      { role: 'about' },
      { type: 'separator' },
      { label: 'Settings…', accelerator: 'Cmd+,', click: () => options.onNavigate?.(PREFERENCES_PATH) },
      { type: 'separator' },
      { role: 'services' },
      { type: 'separator' },
      { role: 'hide' },
      { role: 'hideOthers' },
      { role: 'unhide' },
      { type: 'separator' },
      { role: 'quit' },
    ],
  };
}

function fileMenu(options: MenuOptions, mac: boolean): MenuItemConstructorOptions {
  const action = (id: MenuAction, label: string): MenuItemConstructorOptions => ({
    id,
    label,
    accelerator: MENU_ACCELERATORS[id],
    click: () => options.onAction(id),
  });
  return {
    label: 'File',
    submenu: [
      action('new-project', 'New Project'),
      action('run-test', 'Run Test'),
      ...(options.reportItems?.length ? [{ type: 'separator' } as const, ...options.reportItems] : []),
      { type: 'separator' },
      mac ? { role: 'close' } : { role: 'quit' },
    ],
  };
}

function viewMenu(development: boolean): MenuItemConstructorOptions {
  const devItems: MenuItemConstructorOptions[] = development ? [{ role: 'reload' }, { role: 'forceReload' }, { role: 'toggleDevTools' }, { type: 'separator' }] : [];
  return {
    label: 'View',
    submenu: [...devItems, { role: 'resetZoom' }, { role: 'zoomIn' }, { role: 'zoomOut' }, { type: 'separator' }, { role: 'togglefullscreen' }],
  };
}

function helpMenu(options: MenuOptions): MenuItemConstructorOptions {
  const links = options.helpLinks.filter((link) => parseWebUrl(link.url) !== null);
  const pages = (options.helpPages ?? []).map((page) => ({ label: page.label, click: () => options.onNavigate?.(page.path) }));
  return {
    role: 'help',
    submenu: [...pages, ...links.map((link) => ({ label: link.label, click: () => void options.openExternal(link.url) }))],
  };
}

/** The application menu for `options.platform` (a template for Menu.buildFromTemplate). */
export function buildMenuTemplate(options: MenuOptions): MenuItemConstructorOptions[] {
  const mac = options.platform === 'darwin';
  return [
    ...(mac ? [appMenu(options)] : []),
    fileMenu(options, mac),
    { role: 'editMenu' },
    viewMenu(options.development),
    mac ? { role: 'windowMenu' } : { label: 'Window', submenu: [{ role: 'minimize' }, { role: 'close' }] },
    helpMenu(options),
  ];
}
