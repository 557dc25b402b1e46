import { webhookBodySchema, webhookTestResultSchema, type WebhookBody } from '@common/webhooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../../app/services';
import { ApiError } from '../../../api/http';
import { queryKeys } from '../../../api/query-keys';
import { testFailure, testOutcome, type TestOutcome } from '../webhook-format';
import { texts } from '../texts';

/**
 * POST /webhook/test {url, format}: the server sends a test event in the format (signed JSON or a chat message) and answers the endpoint's status code. The
 * result is the screen's test state (success 200–299, else 'Verification failed' with the code); a call that got
 * no answer from the endpoint ends in 'Webhook test failed' with the server's reason.
 */
export function useTestWebhook() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: WebhookBody): Promise<TestOutcome> => {
      const body = webhookBodySchema.parse(input);
      try {
        const answer = webhookTestResultSchema.parse(await api.request('POST', '/webhook/test', { body, fallbackError: texts.testFailed }));
        return testOutcome(answer.status_code);
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) throw error;
        return testFailure(error instanceof ApiError ? error.message : null);
      }
    },
    // A logged test delivery appears under its webhook.
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.webhooks.allDeliveries }),
  });
}
