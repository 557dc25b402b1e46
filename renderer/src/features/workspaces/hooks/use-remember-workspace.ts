import { LAST_WORKSPACE_PATH } from '@common/workspace-constants';
import { useMutation } from '@tanstack/react-query';
import { useApi } from '../../../app/services';

/**
 * PUT /workspaces/last {workspace_id}: the server keeps the workspace just chosen, so a sign-in on another device
 * (or in a browser whose storage was cleared) starts there (api/last-workspace.ts). Quiet: a failure costs only that
 * convenience, and the choice still holds in this browser. The path comes from the constants: the app's shell (the
 * workspace provider) loads no schema library.
 */
export function useRememberWorkspace() {
  const api = useApi();
  return useMutation({
    mutationFn: (workspaceId: string) => api.request<unknown>('PUT', LAST_WORKSPACE_PATH, { body: { workspace_id: workspaceId } }),
  });
}
