import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { reconnectLiveUpdates } from '../../api/live-streams';
import { fallsBackToPersonal } from '../../api/workspace-store';
import { useServices } from '../../app/services';
import { notify } from '../../ui/toaster';
import { useAuth } from '../../app/auth-context';
import { texts } from './texts';
import { useRememberWorkspace } from './hooks/use-remember-workspace';

export interface CurrentWorkspace {
  /** The workspace the API calls act in; null while nobody is signed in. */
  id: string | null;
  /** The signed-in user's personal workspace (its id is theirs). */
  personalId: string | null;
  /** Acts in `workspaceId` from now on: the cache is emptied and the dashboard opens on its projects (or on `landOn`). */
  switchTo: (workspaceId: string, landOn?: string) => Promise<void>;
}

const WorkspaceContext = createContext<CurrentWorkspace | null>(null);

/** Where a switch lands: the first screen of the dashboard, so nothing of the previous workspace stays on screen. */
export const AFTER_SWITCH_PATH = '/dashboard/projects';

/**
 * Keeps the current workspace (services.workspace, in localStorage per user) in React, and does what a switch
 * needs: a new cache, a new live stream, the projects screen. A stored workspace the server no longer knows the
 * user in (removed while away) falls back to the personal one with a toast.
 */
export function WorkspaceProvider({ navigate, children }: { navigate: (path: string) => Promise<void>; children: ReactNode }) {
  const { workspace: store, bridge } = useServices();
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const { mutate: remember } = useRememberWorkspace();
  const userId = user?.id ?? null;
  const subscribe = useCallback((onChange: () => void) => store.subscribe(onChange), [store]);
  const id = useSyncExternalStore(
    subscribe,
    () => (userId ? store.currentFor(userId) : null),
    () => null,
  );

  const switchTo = useCallback(
    async (workspaceId: string, landOn: string = AFTER_SWITCH_PATH) => {
      if (!userId) return;
      store.select(userId, workspaceId);
      // Kept by the server too: a sign-in on another device starts here (see useRestoreLastWorkspace).
      remember(workspaceId);
      // Leave the screen first (its queries go idle), then drop every answer of the previous workspace: the
      // screens still mounted (the top bar) load theirs again in the new one.
      await navigate(landOn);
      await queryClient.cancelQueries();
      await queryClient.resetQueries();
      reconnectLiveUpdates(queryClient);
    },
    [navigate, queryClient, remember, store, userId],
  );

  useEffect(
    () =>
      store.subscribe((event) => {
        if (event.type !== 'lost' || !userId || !fallsBackToPersonal(store, userId, event.workspaceId)) return;
        // Back to personal at once, so the calls failing after this one go there and do not toast again.
        store.select(userId, userId);
        notify.warning(texts.lostTitle, texts.lostDescription);
        void switchTo(userId);
      }),
    [store, switchTo, userId],
  );

  // The desktop app's notifications follow the workspace on screen (main keeps its own live stream for them).
  useEffect(() => {
    if (!userId) return;
    bridge.showWorkspace(id && id !== userId ? id : null).catch(() => undefined);
  }, [bridge, id, userId]);

  const value = useMemo<CurrentWorkspace>(() => ({ id, personalId: userId, switchTo }), [id, userId, switchTo]);
  return <WorkspaceContext.Provider value={value}>{children}</WorkspaceContext.Provider>;
}

export function useCurrentWorkspace(): CurrentWorkspace {
  const value = useContext(WorkspaceContext);
  if (!value) throw new Error('useCurrentWorkspace must be used inside <WorkspaceProvider>');
  return value;
}
