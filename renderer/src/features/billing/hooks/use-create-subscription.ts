import { BILLING_TEXTS, createSubscriptionSchema, createdSubscriptionSchema } from '@common/billing';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi, useServices } from '../../../app/services';
import { refetchAfterPlanChange } from './plan-changed';
import { notify } from '../../../ui/toaster';
import { toastBillingFailure } from './billing-errors';

/**
 * POST /subscription {price_id}. When the answer carries an invoice to pay (Stripe), it opens outside the app like
 * the marketing checkout links (a new tab on the web, the system browser in the desktop app); otherwise the
 * 'Subscription Created' toast. The subscription list reloads either way.
 */
export function useCreateSubscription() {
  const api = useApi();
  const { bridge } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (priceId: string) => {
      const body = createSubscriptionSchema.parse({ price_id: priceId });
      return createdSubscriptionSchema.parse(await api.request('POST', '/subscription', { body, fallbackError: BILLING_TEXTS.createFailed }));
    },
    onSuccess: async ({ subscription }) => {
      const invoiceUrl = subscription.latest_invoice?.hosted_invoice_url;
      if (invoiceUrl && (await bridge.openExternal(invoiceUrl))) return;
      notify.success(BILLING_TEXTS.createdTitle, BILLING_TEXTS.createdBody);
    },
    onError: (error) => toastBillingFailure(BILLING_TEXTS.createFailed, BILLING_TEXTS.requestFallback, error),
    onSettled: () => refetchAfterPlanChange(queryClient),
  });
}
