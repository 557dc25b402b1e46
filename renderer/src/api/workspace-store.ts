// The workspace the app acts in. Its id is kept in localStorage (it is not a secret) under a key per user, so
// one browser shared by two accounts does not send one's workspace with the other's token. A user who never chose
// one acts in their personal workspace, whose id is their user id.

/** localStorage key prefix; the user's id follows. */
export const WORKSPACE_STORAGE_PREFIX = 'vibeeval-workspace:';

/** The part of Web Storage the store uses (null while prerendering, or where storage is refused). */
export type WorkspaceStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export type WorkspaceEvent =
  | { type: 'changed'; userId: string; workspaceId: string }
  /** The server answered 'Workspace not found' for the stored workspace: the user is no longer a member. */
  | { type: 'lost'; workspaceId: string };

export interface WorkspaceStore {
  /** The workspace `userId` acts in: the stored one, or the personal one (the user's id). */
  currentFor(userId: string): string;
  /** Makes `workspaceId` current for `userId` (their own id: back to the personal workspace). */
  select(userId: string, workspaceId: string): void;
  /** Reports that the server no longer knows the caller in `workspaceId`. */
  lose(workspaceId: string): void;
  subscribe(listener: (event: WorkspaceEvent) => void): () => void;
}

/** Storage that may throw (private modes, quotas): the store then keeps the choice for this page only. */
function safe(storage: WorkspaceStorage | null) {
  const memory = new Map<string, string>();
  return {
    get(key: string): string | null {
      try {
        return storage?.getItem(key) ?? memory.get(key) ?? null;
      } catch {
        return memory.get(key) ?? null;
      }
    },
    set(key: string, value: string | null) {
      if (value === null) memory.delete(key);
      else memory.set(key, value);
      try {
        if (value === null) storage?.removeItem(key);
        else storage?.setItem(key, value);
      } catch {
        // The in-memory copy above holds it.
      }
    },
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function createWorkspaceStore(storage: WorkspaceStorage | null): WorkspaceStore {
  const kept = safe(storage);
  const listeners = new Set<(event: WorkspaceEvent) => void>();
  const emit = (event: WorkspaceEvent) => {
    for (const listener of listeners) listener(event);
  };
  return {
    currentFor(userId) {
      const stored = kept.get(WORKSPACE_STORAGE_PREFIX + userId);
      // Anything else in the slot (edited by hand, an older format) would only earn a 400 on every call.
      return stored && UUID.test(stored) ? stored.toLowerCase() : userId;
    },
    select(userId, workspaceId) {
      kept.set(WORKSPACE_STORAGE_PREFIX + userId, workspaceId === userId ? null : workspaceId);
      emit({ type: 'changed', userId, workspaceId });
    },
    lose(workspaceId) {
      emit({ type: 'lost', workspaceId });
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The browser's localStorage, or null where there is none or it is refused. */
export function browserStorage(): WorkspaceStorage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

/**
 * Whether losing `lostId` sends `userId` back to their personal workspace: only when it is the one they act in
 * (several calls fail at once; the first moves them, the others find them moved) and it is not the personal one.
 */
export function fallsBackToPersonal(store: WorkspaceStore, userId: string, lostId: string): boolean {
  return lostId !== userId && store.currentFor(userId) === lostId;
}
