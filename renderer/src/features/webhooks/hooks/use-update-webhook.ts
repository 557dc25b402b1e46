import { webhookSchema, webhookUpdateSchema, type WebhookFormat } from '@common/webhooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../../app/services';
import { ApiError } from '../../../api/http';
import { queryKeys } from '../../../api/query-keys';
import { notify } from '../../../ui/toaster';
import { texts } from '../texts';

/** PATCH /webhook/{id} {format}: a saved webhook's deliveries change format; toasts the outcome. */
export function useUpdateWebhook() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, format }: { id: string; format: WebhookFormat }) => {
      const body = webhookUpdateSchema.parse({ format });
      return webhookSchema.parse(await api.request('PATCH', `/webhook/${encodeURIComponent(id)}`, { body, fallbackError: texts.formatChangeFailed }));
    },
    onSuccess: () => notify.success(texts.formatChanged),
    onError: (error) => notify.error(error instanceof ApiError ? error.message : texts.formatChangeFailed),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.webhooks.list() }),
  });
}
