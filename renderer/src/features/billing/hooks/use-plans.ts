import { plansResponseSchema, BILLING_TEXTS } from '@common/billing';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../../app/services';
import { ApiError } from '../../../api/http';
import { queryKeys } from '../../../api/query-keys';
import { billingErrorMessage } from '../billing-view';

/** GET /plans (no auth): the plans by position and who bills ('local' means no payment is collected). */
export function usePlans() {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.billing.plans,
    queryFn: async ({ signal }) => {
      try {
        return plansResponseSchema.parse(await api.request('GET', '/plans', { auth: false, fallbackError: BILLING_TEXTS.fetchPlansFailed, signal }));
      } catch (error) {
        console.error(error);
        const message = billingErrorMessage(BILLING_TEXTS.fetchPlansFailed, error) ?? BILLING_TEXTS.fetchPlansFailed;
        // Still an ApiError with its status, so the query client does not retry a 4xx.
        throw error instanceof ApiError ? new ApiError(error.status, message, error.body) : new Error(message, { cause: error });
      }
    },
  });
}
