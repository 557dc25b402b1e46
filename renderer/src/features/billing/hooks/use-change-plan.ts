import { BILLING_TEXTS, changeSubscriptionSchema, subscriptionResponseSchema } from '@common/billing';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../../app/services';
import { refetchAfterPlanChange } from './plan-changed';
import { notify } from '../../../ui/toaster';
import { toastBillingFailure } from './billing-errors';

export interface PlanChange {
  subscriptionId: string;
  priceId: string;
  /** Which toast text follows success: upgraded to / downgraded to. */
  direction: 'upgrade' | 'downgrade';
}

/** POST /subscription/{id}/upgrade {new_price_id}: an upgrade takes effect now, a downgrade at period end. */
export function useChangePlan() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ subscriptionId, priceId }: PlanChange) => {
      const body = changeSubscriptionSchema.parse({ new_price_id: priceId });
      const path = `/subscription/${encodeURIComponent(subscriptionId)}/upgrade`;
      return subscriptionResponseSchema.parse(await api.request('POST', path, { body, fallbackError: BILLING_TEXTS.updateFailed }));
    },
    onSuccess: (_answer, { direction }) => notify.success(BILLING_TEXTS.updatedTitle, direction === 'upgrade' ? BILLING_TEXTS.upgradedBody : BILLING_TEXTS.downgradedBody),
    onError: (error) => toastBillingFailure(BILLING_TEXTS.updateFailed, BILLING_TEXTS.requestFallback, error),
    onSettled: () => refetchAfterPlanChange(queryClient),
  });
}
