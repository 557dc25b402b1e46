import type { LiveMessage } from '../common/projects';
import { missedFinishes } from './live-catch-up';
import { createSessionSource, type SessionVault } from './live-session';
import { createLiveSubscriber, type LiveSubscriber, type LiveSubscriberOptions } from './live-subscriber';
import { createNoticeContext } from './notice-context';
import { createNotifier, type ShowNotification } from './notifications';

export interface LiveNotificationsOptions {
  origin: string;
  vault: SessionVault;
  /** Whether the main window exists (the renderer then refreshes the session; see live-session.ts). */
  hasWindow: () => boolean;
  /** The workspace the app shows: the stream, the catch-up and the texts' context act in it. Absent = personal. */
  workspace?: () => string | null;
  /** The desktop-notification choice in the settings. */
  notificationsEnabled: () => boolean;
  show: ShowNotification;
  /** Brings the main window forward, opening it again when it was closed. */
  focusWindow: () => void;
  /** Opens the project's page, or `path` (a page of the app) when given. */
  openProject: (projectId: string, path?: string) => void;
  fetch?: typeof fetch;
  now?: () => number;
  log?: (message: string) => void;
  /** Reconnect pauses and the idle limit, for tests. */
  delay?: LiveSubscriberOptions['delay'];
  idleTimeoutMs?: number;
}

export interface LiveNotifications {
  /** The stored session was written or removed (sign-in, refresh, sign-out), or another workspace was chosen. */
  sessionChanged(): void;
  /** Resolves once main is not reading or refreshing the session. */
  settled(): Promise<void>;
  stop(): void;
  readonly subscriber: LiveSubscriber;
}

/**
 * Native notifications from the signed-in user's live stream: the session from the vault, the stream with
 * reconnects, the texts' context from the API, and the notifier's dedupe, so that one finished scan or run gives
 * one notification even when the stream drops and the finish is seen both live and in the catch-up after it.
 */
export function startLiveNotifications(options: LiveNotificationsOptions): LiveNotifications {
  const session = createSessionSource({
    vault: options.vault,
    origin: options.origin,
    hasWindow: options.hasWindow,
    workspace: options.workspace,
    fetch: options.fetch,
    now: options.now,
    log: options.log,
  });
  const context = createNoticeContext({ origin: options.origin, session, fetch: options.fetch, now: options.now });
  const notifier = createNotifier({
    context,
    isSignedIn: () => session.signedIn,
    notificationsEnabled: options.notificationsEnabled,
    show: options.show,
    focusWindow: options.focusWindow,
    openProject: options.openProject,
  });
  // A message is shown only while its user is still the signed-in one (the context may take a moment).
  const deliver = async (message: LiveMessage, owner: string | null) => {
    await context.prepare(message);
    if (owner !== null && subscriber.userId === owner) notifier.handle(message);
  };
  const fail = (error: unknown) => options.log?.(`live notifications: ${(error as Error).message}`);

  const subscriber = createLiveSubscriber({
    origin: options.origin,
    session,
    fetch: options.fetch,
    delay: options.delay,
    idleTimeoutMs: options.idleTimeoutMs,
    log: options.log,
    onMessage: (message) => void deliver(message, subscriber.userId).catch(fail),
    onOpen({ reconnected, downSince, session: active }) {
      // What finished while the stream was down was never sent: ask for it (the dedupe drops what was seen).
      if (!reconnected || downSince === null) return;
      void missedFinishes(options, active, downSince)
        .then((messages) => Promise.all(messages.map((message) => deliver(message, active.userId))))
        .catch(fail);
    },
  });
  subscriber.start();
  return {
    sessionChanged: () => subscriber.sessionChanged(),
    settled: () => session.settled(),
    stop: () => subscriber.stop(),
    subscriber,
  };
}
