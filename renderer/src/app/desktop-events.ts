import type { Bridge } from '../bridge';
import { notify } from '../ui/toaster';
import { menuCommands, type MenuCommand, type MenuCommandState, type MenuCommands } from './menu-commands';

/** What the app's events act on: the router (to open a page) and the pages' menu commands. */
export interface DesktopEventTargets {
  navigate(path: string, state?: MenuCommandState): void;
  commands?: Pick<MenuCommands, 'dispatch'>;
}

export const MENU_TEXTS = {
  openProjectFirst: 'Open a project first',
  openProjectFirstDetail: 'Run Test runs the test of the project that shows.',
};

/**
 * A menu command: the page that shows carries it out when it can; else New Project opens the projects page
 * with its dialog (signed out, the dashboard's guard sends the user to /login instead), and Run Test says
 * which page it works on.
 */
export function runMenuCommand(command: MenuCommand, targets: DesktopEventTargets): void {
  if ((targets.commands ?? menuCommands).dispatch(command)) return;
  if (command === 'new-project') targets.navigate('/dashboard/projects', { menuCommand: 'new-project' });
  else notify.info(MENU_TEXTS.openProjectFirst, MENU_TEXTS.openProjectFirstDetail);
}

/**
 * Listens to the desktop app's own events that belong to the whole app rather than one page: open a page (a
 * notification or a link was clicked), menu commands (dispatched to the page that shows) and one-time notices,
 * including those main kept while the app booted, taken right after subscribing. Returns the unsubscribe
 * function; on the web nothing ever arrives.
 */
export function listenToDesktopEvents(bridge: Bridge, targets: DesktopEventTargets): () => void {
  const showNotice = ({ title, message }: { title: string; message: string }) => notify.info(title, message);
  const stops = [
    bridge.subscribe('vibeeval:event:navigate', ({ path }) => targets.navigate(path)),
    bridge.subscribe('vibeeval:event:menu', ({ command }) => runMenuCommand(command, targets)),
    bridge.subscribe('vibeeval:event:notice', showNotice),
  ];
  // Taken notices are gone from main: they are shown even if this listener stopped meanwhile.
  bridge
    .takeNotices()
    .then((notices) => notices.forEach(showNotice))
    .catch((error: unknown) => console.warn(`vibeeval: could not read the app's notices: ${(error as Error).message}`));
  return () => stops.forEach((stop) => stop());
}
