import { useMutation } from '@tanstack/react-query';
import { useApi } from '../../../app/services';
import { workspacePath } from '../paths';

/**
 * PUT /workspaces/last {workspace_id}: the server keeps the workspace just chosen, so a sign-in on another device
 * (or in a browser whose storage was cleared) starts there. Quiet: a failure costs only that convenience, and the
 * choice still holds in this browser.
 */
export function useRememberWorkspace() {
  const api = useApi();
  return useMutation({
    mutationFn: (workspaceId: string) => api.request<unknown>('PUT', workspacePath('last'), { body: { workspace_id: workspaceId } }),
  });
}
