import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../../app/services';
import { ApiError } from '../../../api/http';
import { queryKeys } from '../../../api/query-keys';
import { notify } from '../../../ui/toaster';
import { texts } from '../texts';

/** DELETE /domains/{id}; toasts 'Domain removed' or the reason it was not. */
export function useRemoveDomain() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.request<unknown>('DELETE', `/domains/${encodeURIComponent(id)}`, { fallbackError: texts.removeFailed }),
    onSuccess: () => notify.success(texts.removed),
    meta: { errorToast: (error) => [error instanceof ApiError ? error.message : texts.removeFailed] },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.domains.list() }),
  });
}
