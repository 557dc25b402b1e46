import type { Bridge } from '../bridge';
import { notify } from '../ui/toaster';

/** What the app's events act on: the router (to open a page). */
export interface DesktopEventTargets {
  navigate(path: string): void;
}

/**
 * Listens to the desktop app's own events that belong to the whole app rather than one page: open a page (a
 * notification or a link was clicked) and one-time notices. Returns the unsubscribe function; on the web nothing
 * ever arrives. Page-level events (menu commands, sign-in results) are subscribed to by their pages.
 */
export function listenToDesktopEvents(bridge: Bridge, targets: DesktopEventTargets): () => void {
  const stops = [
    bridge.subscribe('vibeeval:event:navigate', ({ path }) => targets.navigate(path)),
    bridge.subscribe('vibeeval:event:notice', ({ title, message }) => notify.info(title, message)),
  ];
  return () => stops.forEach((stop) => stop());
}
