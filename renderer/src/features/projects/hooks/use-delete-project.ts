import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../../app/services';
import { queryKeys } from '../../../api/query-keys';
import { notify } from '../../../ui/toaster';
import { texts } from '../texts';
import { NO_BODY } from '../../../api/http';

/** DELETE /project/{id}; toasts 'Project deleted' or 'Failed to delete project'. */
export function useDeleteProject(id: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api.request<unknown>('DELETE', `/project/${encodeURIComponent(id)}`, { body: NO_BODY, fallbackError: 'Failed to delete project' }),
    onSuccess: () => {
      // The project and everything under its key (scan, events) is gone; do not refetch it into a 404.
      queryClient.removeQueries({ queryKey: queryKeys.projects.detail(id) });
      queryClient.removeQueries({ queryKey: queryKeys.live.scanProgress(id) });
      notify.success('Project deleted');
    },
    meta: { errorToast: texts.deleteFailed },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.projects.list() }),
  });
}
