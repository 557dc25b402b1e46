import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../../app/services';
import { queryKeys } from '../../../api/query-keys';
import { notify } from '../../../ui/toaster';
import { scenarioCallError } from '../scenario-format';
import { CALL_NAMES, texts } from '../texts';

/** DELETE /scenario/{id}; toasts 'Test scenario deleted' or 'Failed to delete test scenario'. */
export function useDeleteScenario() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.request<unknown>('DELETE', `/scenario/${encodeURIComponent(id)}`, { fallbackError: 'Failed to delete scenario' }),
    onSuccess: (_body, id) => {
      // Gone: do not refetch its detail into a 404.
      queryClient.removeQueries({ queryKey: queryKeys.scenarios.detail(id) });
      notify.success(texts.deleted);
    },
    meta: { errorToast: (error) => [texts.deleteFailed, scenarioCallError(CALL_NAMES.delete, error)], toastUnauthorized: true },
    // The plan's count of scenarios held changed too (the generate dialog says how many more fit).
    onSettled: () => Promise.all([queryClient.invalidateQueries({ queryKey: queryKeys.scenarios.list() }), queryClient.invalidateQueries({ queryKey: queryKeys.planLimits })]),
  });
}
