import type { EventTarget } from './events';
import { sendEvent } from './events';
import type { ShowNotification } from './notifications';

/** One native notification: the part of Electron's Notification used here. */
export interface NativeNotification {
  on(event: 'click' | 'close', listener: () => void): unknown;
  show(): void;
}

/** Electron's Notification class (a fake in tests). */
export interface NotificationApi {
  isSupported(): boolean;
  new (options: { title: string; body: string }): NativeNotification;
}

/**
 * Shows notices with the OS's notifications, when the platform has them (Linux without a notification daemon
 * does not). Each one is held until clicked or closed: an unreferenced Notification can be garbage collected
 * and its click then never arrives.
 */
export function nativeNotifications(api: NotificationApi): ShowNotification {
  const held = new Set<NativeNotification>();
  return (notice, onClick) => {
    if (!api.isSupported()) return;
    const notification = new api({ title: notice.title, body: notice.body });
    held.add(notification);
    notification.on('click', () => {
      held.delete(notification);
      onClick();
    });
    notification.on('close', () => held.delete(notification));
    notification.show();
  };
}

export interface ProjectOpenerOptions {
  getWindow: () => EventTarget | null;
  /** Opens the main window again (macOS: the app runs with no window) directly on `path`. */
  reopen: (path: string) => Promise<void>;
  log?: (message: string) => void;
}

/**
 * Opens a project's page (or `page`, another page of the app about it): in the open window through the navigate
 * event, else in a window opened on it.
 */
export function projectOpener(options: ProjectOpenerOptions): (projectId: string, page?: string) => void {
  return (projectId, page) => {
    const path = page ?? `/dashboard/projects/${encodeURIComponent(projectId)}`;
    const window = options.getWindow();
    if (window && !window.isDestroyed()) {
      sendEvent(window, 'vibeeval:event:navigate', { path });
      return;
    }
    // A new window's page is not listening yet: it loads the path itself.
    options.reopen(path).catch((error: unknown) => options.log?.(`could not open the window: ${(error as Error).message}`));
  };
}
