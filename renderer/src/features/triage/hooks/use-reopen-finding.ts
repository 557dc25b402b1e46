import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../../app/services';
import { queryKeys } from '../../../api/query-keys';
import { notify } from '../../../ui/toaster';
import { NO_BODY } from '../../../api/http';
import { TRIAGE_UI } from '../texts';

/** DELETE /project/{id}/decisions/{fingerprint}: the finding counts again; toasts 'Finding reopened'. */
export function useReopenFinding(projectId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (fingerprint: string) =>
      api.request<unknown>('DELETE', `/project/${encodeURIComponent(projectId)}/decisions/${encodeURIComponent(fingerprint)}`, {
        body: NO_BODY,
        fallbackError: TRIAGE_UI.reopenFailed,
      }),
    onSuccess: () => notify.success(TRIAGE_UI.reopened),
    meta: { errorToast: (error) => [TRIAGE_UI.reopenFailed, error instanceof Error ? error.message : undefined] },
    // The project (its scan, grade and decisions, all under its key) and the list's cards show the new numbers.
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.projects.detail(projectId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.projects.list() }),
      ]);
    },
  });
}
