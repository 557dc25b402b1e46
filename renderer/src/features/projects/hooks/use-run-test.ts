import { runTestResponseSchema } from '@common/projects';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../../app/services';
import { ApiError, NO_BODY } from '../../../api/http';
import { queryKeys } from '../../../api/query-keys';
import { notify } from '../../../ui/toaster';
import { texts } from '../texts';

/**
 * PATCH /project_test/{id} starts a scan; the server's message is toasted as 'Test initiated'. Then, as the
 * spec says, last_test is set to now and the project reloads. A 409 (already running) toasts its detail.
 */
export function useRunTest(id: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  const path = `/project/${encodeURIComponent(id)}`;
  return useMutation({
    mutationFn: async () => {
      const body: unknown = await api.request('PATCH', `/project_test/${encodeURIComponent(id)}`, {
        body: NO_BODY,
        fallbackError: 'Failed to run test',
      });
      const parsed = runTestResponseSchema.partial().safeParse(body);
      return parsed.success ? parsed.data : {};
    },
    onSuccess: async (response) => {
      notify.success(texts.runStarted, response.message || texts.runStartedFallback);
      // The scan has started either way; a failure to record last_test is not worth a second error toast.
      await api.request('PATCH', path, { body: { last_test: new Date().toISOString() }, fallbackError: 'Failed to update project' }).catch(() => undefined);
    },
    meta: { errorToast: (error) => [texts.runFailed, error instanceof ApiError ? error.message : undefined] },
    onSettled: () =>
      Promise.all([queryClient.invalidateQueries({ queryKey: queryKeys.projects.detail(id) }), queryClient.invalidateQueries({ queryKey: queryKeys.projects.list() })]),
  });
}
