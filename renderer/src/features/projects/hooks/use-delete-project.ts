import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../../app/services';
import { queryKeys } from '../../../api/query-keys';
import { notify } from '../../../ui/toaster';
import { texts } from '../texts';
import { NO_BODY } from '../../../api/http';

/**
 * DELETE /project/{id}; toasts 'Project deleted' or 'Failed to delete project'. `leave` takes the user off the
 * project's page first: its cache entries are removed only once nothing on screen asks for them, or the page
 * still mounted would fetch the project again into a 404.
 */
export function useDeleteProject(id: string, { leave }: { leave?: () => Promise<void> | void } = {}) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.request<unknown>('DELETE', `/project/${encodeURIComponent(id)}`, { body: NO_BODY, fallbackError: 'Failed to delete project' }),
    onSuccess: async () => {
      notify.success('Project deleted');
      await leave?.();
      // The project and everything under its key (scan, events) is gone; do not refetch it into a 404.
      await queryClient.cancelQueries({ queryKey: queryKeys.projects.detail(id) });
      queryClient.removeQueries({ queryKey: queryKeys.projects.detail(id) });
      queryClient.removeQueries({ queryKey: queryKeys.live.scanProgress(id) });
    },
    meta: { errorToast: texts.deleteFailed },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.projects.list() }),
  });
}
