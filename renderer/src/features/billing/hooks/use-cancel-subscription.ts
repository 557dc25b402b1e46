import { BILLING_TEXTS, cancelSubscriptionSchema, subscriptionResponseSchema } from '@common/billing';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../../app/services';
import { refetchAfterPlanChange } from './plan-changed';
import { notify } from '../../../ui/toaster';
import { toastBillingFailure } from './billing-errors';

/** POST /subscription/{id}/cancel {}: access stays until the period end; 'Subscription Cancelled' on success. */
export function useCancelSubscription() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (subscriptionId: string) => {
      const path = `/subscription/${encodeURIComponent(subscriptionId)}/cancel`;
      const body = cancelSubscriptionSchema.parse({});
      return subscriptionResponseSchema.parse(await api.request('POST', path, { body, fallbackError: BILLING_TEXTS.cancelFailed }));
    },
    onSuccess: () => notify.success(BILLING_TEXTS.cancelledTitle, BILLING_TEXTS.cancelledBody),
    onError: (error) => toastBillingFailure(BILLING_TEXTS.cancelFailed, BILLING_TEXTS.cancelFallback, error),
    onSettled: () => refetchAfterPlanChange(queryClient),
  });
}
