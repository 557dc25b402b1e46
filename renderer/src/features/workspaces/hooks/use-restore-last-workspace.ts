import { lastWorkspaceSchema } from '@common/workspaces';
import { useCallback } from 'react';
import { useServices } from '../../../app/services';
import { workspacePath } from '../paths';

/**
 * At a sign-in: GET /workspaces/last, and the workspace the user chose last (on any device) becomes the one this
 * browser acts in, before the dashboard opens, so nothing of another workspace is shown first. Quiet: when the
 * server cannot say, the choice kept in this browser (or the personal workspace) stays.
 */
export function useRestoreLastWorkspace(): (userId: string) => Promise<void> {
  const { api, workspace } = useServices();
  return useCallback(
    async (userId: string) => {
      try {
        const last = lastWorkspaceSchema.parse(await api.request('GET', workspacePath('last')));
        if (last.workspace_id !== workspace.currentFor(userId)) workspace.select(userId, last.workspace_id);
      } catch {
        // Kept as it is: see above.
      }
    },
    [api, workspace],
  );
}
