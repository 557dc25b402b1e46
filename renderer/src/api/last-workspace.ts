import { LAST_WORKSPACE_PATH } from '@common/workspace-constants';
import type { ApiClient } from './http';
import type { WorkspaceStore } from './workspace-store';

/**
 * At a sign-in (a password, or Google in the desktop app): GET /workspaces/last, and the workspace the user chose
 * last (on any device) becomes the one this browser acts in, before the dashboard opens, so nothing of another
 * workspace is shown first. Quiet: when the server cannot say, the choice kept in this browser (or the personal
 * workspace) stays. The choice is written by the workspace switch (features/workspaces, useRememberWorkspace).
 */
export async function restoreLastWorkspace(api: ApiClient, store: WorkspaceStore, userId: string): Promise<void> {
  try {
    // The schema is loaded with the answer: the public pages, which share this module's chunk, load no schema library.
    const [{ lastWorkspaceSchema }, answer] = await Promise.all([import('@common/workspaces'), api.request('GET', LAST_WORKSPACE_PATH)]);
    const last = lastWorkspaceSchema.parse(answer);
    if (last.workspace_id !== store.currentFor(userId)) store.select(userId, last.workspace_id);
  } catch {
    // Kept as it is: see above.
  }
}
