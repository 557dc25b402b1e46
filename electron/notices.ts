import { MAX_QUEUED_NOTICES, noticeSchema, type Notice } from '../common/ipc';

interface Queued {
  notice: Notice;
  onDelivered?: () => void;
}

export interface NoticeQueueOptions {
  /** Sends a notice as a `vibeeval:event:notice` event; false when no app window could take it. */
  send: (notice: Notice) => boolean;
}

export interface NoticeQueue {
  /** Tells the user something once: sent at once when the renderer listens, else kept until it takes them. */
  push(notice: Notice, onDelivered?: () => void): void;
  /** The `vibeeval:app:take-notices` handler: the kept notices, emptied; later ones are sent as events. */
  take(): Notice[];
}

/**
 * Notices for the user from main. Some arise during boot (the vault is first used while the session loads),
 * before the renderer subscribes to events, and an event sent then would be lost: until the renderer has
 * asked for the kept notices, they are kept; after that, each is sent as it comes (and kept if sending fails).
 */
export function createNoticeQueue(options: NoticeQueueOptions): NoticeQueue {
  let queued: Queued[] = [];
  let listening = false;
  return {
    push(notice, onDelivered) {
      const checked = noticeSchema.parse(notice);
      if (queued.some((entry) => entry.notice.kind === checked.kind)) return; // once is enough
      if (listening && options.send(checked)) {
        onDelivered?.();
        return;
      }
      if (queued.length < MAX_QUEUED_NOTICES) queued.push({ notice: checked, onDelivered });
    },
    take() {
      listening = true;
      const taken = queued;
      queued = [];
      taken.forEach((entry) => entry.onDelivered?.());
      return taken.map((entry) => entry.notice);
    },
  };
}

export const KEYCHAIN_FALLBACK_NOTICE: Notice = {
  kind: 'keychain-fallback',
  title: 'System keychain unavailable',
  message: 'vibeeval could not use the system keychain, so your session is kept in files encrypted by the operating ' + "system in vibeeval's own folder instead.",
};

export interface KeychainNoticeDeps {
  queue: Pick<NoticeQueue, 'push'>;
  /** Whether the user was already told (settings' keychainNoticeShown). */
  alreadyShown: () => boolean;
  /** Remembers that the user was told. */
  markShown: () => void;
}

/** The vault's onFallback: tells the user once per install (the reason goes to the log only). */
export function keychainFallbackReporter(deps: KeychainNoticeDeps): (reason: string) => void {
  return (reason) => {
    console.warn(`vibeeval: keychain unavailable (${reason}); secrets are kept in encrypted files instead.`);
    if (!deps.alreadyShown()) deps.queue.push(KEYCHAIN_FALLBACK_NOTICE, deps.markShown);
  };
}
