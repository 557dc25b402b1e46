import { createdWebhookSchema, webhookBodySchema, type WebhookBody } from '@common/webhooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../../app/services';
import { ApiError } from '../../../api/http';
import { queryKeys } from '../../../api/query-keys';
import { notify } from '../../../ui/toaster';
import { texts } from '../texts';

/** POST /webhook {url, format}: answers the webhook with its signing secret (sent once); a failure toasts the server's detail. */
export function useSaveWebhook() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: WebhookBody) => {
      const body = webhookBodySchema.parse(input);
      return createdWebhookSchema.parse(await api.request('POST', '/webhook', { body, fallbackError: texts.saveFailed }));
    },
    onSuccess: () => notify.success(texts.saved),
    meta: { errorToast: (error) => [error instanceof ApiError ? error.message : texts.saveFailed] },
    onSettled: async () => {
      // Saving a webhook turns the account's webhook notifications on (server side): the notice goes.
      await queryClient.invalidateQueries({ queryKey: queryKeys.preferences });
      await queryClient.invalidateQueries({ queryKey: queryKeys.webhooks.list() });
    },
  });
}
