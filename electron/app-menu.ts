import type { MenuItemConstructorOptions } from 'electron';
import { sendEvent, type EventTarget } from './events';
import { buildMenuTemplate, type HelpLink, type HelpPage, type MenuAction } from './menu';
import type { ReportMenuItem } from './report-actions';

export interface ApplicationMenuDeps {
  platform: NodeJS.Platform;
  development: boolean;
  appName: string;
  /** Menu.setApplicationMenu(Menu.buildFromTemplate(template)) in the app. */
  setApplicationMenu: (template: MenuItemConstructorOptions[]) => void;
  getMainWindow: () => EventTarget | null;
  focusMainWindow: () => void;
  openExternal: (url: string) => unknown;
  helpLinks?: readonly HelpLink[];
  helpPages?: readonly HelpPage[];
}

/** The installed application menu; on macOS it also carries the focused report window's actions. */
export interface ApplicationMenu {
  /** Shows `items` in the File menu while `owner` (a report window) is focused. */
  showReportItems(owner: object, items: readonly ReportMenuItem[]): void;
  /** Takes `owner`'s items away again (it lost focus or closed); another window's items stay. */
  hideReportItems(owner: object): void;
}

/**
 * Installs the application menu (every platform). Its commands go to the app window's page as
 * `vibeeval:event:menu` events, after bringing the window to the front: the page that shows carries them out.
 */
export function installApplicationMenu(deps: ApplicationMenuDeps): ApplicationMenu {
  let reportOwner: object | null = null;
  let reportItems: readonly ReportMenuItem[] = [];

  const onAction = (command: MenuAction) => {
    deps.focusMainWindow();
    sendEvent(deps.getMainWindow(), 'vibeeval:event:menu', { command });
  };
  const onNavigate = (path: string) => {
    deps.focusMainWindow();
    sendEvent(deps.getMainWindow(), 'vibeeval:event:navigate', { path });
  };
  const install = () =>
    deps.setApplicationMenu(
      buildMenuTemplate({
        platform: deps.platform,
        development: deps.development,
        appName: deps.appName,
        onAction,
        onNavigate,
        openExternal: deps.openExternal,
        helpLinks: deps.helpLinks ?? [],
        helpPages: deps.helpPages ?? [],
        reportItems,
      }),
    );

  install();
  return {
    showReportItems(owner, items) {
      reportOwner = owner;
      reportItems = items;
      install();
    },
    hideReportItems(owner) {
      if (reportOwner !== owner) return;
      reportOwner = null;
      reportItems = [];
      install();
    },
  };
}
