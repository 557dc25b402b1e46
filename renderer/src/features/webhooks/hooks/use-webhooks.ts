import { webhookSchema } from '@common/webhooks';
import { useInfiniteQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { useApi } from '../../../app/services';
import { fetchPage, joinPages, pageParams } from '../../../api/pages';
import { queryKeys } from '../../../api/query-keys';
import { texts } from '../texts';

const webhookListSchema = z.array(webhookSchema);

/** GET /webhooks, a page at a time; 'Failed to load webhooks' when the server gives no reason. */
export function useWebhooks() {
  const api = useApi();
  const query = useInfiniteQuery({
    queryKey: queryKeys.webhooks.list(),
    queryFn: ({ pageParam, signal }) => fetchPage(api, '/webhooks', pageParam, webhookListSchema, { fallbackError: texts.loadFailed, signal }),
    ...pageParams,
  });
  return { ...query, webhooks: joinPages(query.data) };
}
