import { webhookDeliverySchema } from '@common/webhooks';
import { useInfiniteQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { useApi } from '../../../app/services';
import { fetchPage, joinPages, pageParams } from '../../../api/pages';
import { queryKeys } from '../../../api/query-keys';
import { texts } from '../texts';

const deliveryListSchema = z.array(webhookDeliverySchema);

/** How often open delivery lists look for new deliveries and retries. */
const REFRESH_MS = 5_000;

/** GET /webhook/{id}/deliveries (newest first, with attempts), loaded when the webhook is expanded. */
export function useWebhookDeliveries(id: string, enabled: boolean) {
  const api = useApi();
  const query = useInfiniteQuery({
    queryKey: queryKeys.webhooks.deliveries(id),
    queryFn: ({ pageParam, signal }) =>
      fetchPage(api, `/webhook/${encodeURIComponent(id)}/deliveries`, pageParam, deliveryListSchema, { fallbackError: texts.deliveriesLoadFailed, signal }),
    ...pageParams,
    enabled,
    refetchInterval: enabled ? REFRESH_MS : false,
  });
  return { ...query, deliveries: joinPages(query.data) };
}
