import { subscriptionsResponseSchema, BILLING_TEXTS } from '@common/billing';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../../app/services';
import { ApiError } from '../../../api/http';
import { queryKeys } from '../../../api/query-keys';
import { billingErrorMessage } from '../billing-view';

/** GET /subscriptions: the account's subscriptions, newest first (the first active one is the current one). */
export function useSubscriptions() {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.billing.subscriptions,
    queryFn: async ({ signal }) => {
      try {
        const answer = subscriptionsResponseSchema.parse(await api.request('GET', '/subscriptions', { fallbackError: BILLING_TEXTS.fetchSubscriptionsFailed, signal }));
        return answer.subscriptions;
      } catch (error) {
        // A 401 stays an ApiError: the query client signs the user out once, for every page.
        if (error instanceof ApiError && error.status === 401) throw error;
        console.error(error);
        const message = billingErrorMessage(BILLING_TEXTS.fetchSubscriptionsFailed, error) ?? BILLING_TEXTS.fetchSubscriptionsFailed;
        // Still an ApiError with its status, so the query client does not retry a 4xx.
        throw error instanceof ApiError ? new ApiError(error.status, message, error.body) : new Error(message, { cause: error });
      }
    },
  });
}
