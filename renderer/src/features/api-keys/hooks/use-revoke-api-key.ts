import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../../app/services';
import { ApiError } from '../../../api/http';
import { queryKeys } from '../../../api/query-keys';
import { notify } from '../../../ui/toaster';
import { texts } from '../texts';

/** DELETE /api_key/{id}: the key stops working at once; toasts 'API key revoked' or the reason it was not. */
export function useRevokeApiKey() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.request<unknown>('DELETE', `/api_key/${encodeURIComponent(id)}`, { fallbackError: texts.revokeFailed }),
    onSuccess: () => notify.success(texts.revoked),
    meta: { errorToast: (error) => [texts.revokeFailed, error instanceof ApiError && error.message !== texts.revokeFailed ? error.message : undefined] },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.apiKeys.list() }),
  });
}
