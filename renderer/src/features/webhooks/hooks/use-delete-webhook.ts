import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../../app/services';
import { queryKeys } from '../../../api/query-keys';
import { notify } from '../../../ui/toaster';
import { texts } from '../texts';

/** DELETE /webhook/{id}; toasts 'Webhook deleted' or 'Failed to delete webhook'. */
export function useDeleteWebhook() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.request<unknown>('DELETE', `/webhook/${encodeURIComponent(id)}`, { fallbackError: texts.deleteFailed }),
    onSuccess: (_answer, id) => {
      queryClient.removeQueries({ queryKey: queryKeys.webhooks.deliveries(id) });
      notify.success(texts.deleted);
    },
    meta: { errorToast: [texts.deleteFailed] },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.webhooks.list() }),
  });
}
