import { apiKeySchema } from '@common/api-keys';
import { useInfiniteQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { useApi } from '../../../app/services';
import { fetchPage, joinPages, pageParams } from '../../../api/pages';
import { queryKeys } from '../../../api/query-keys';
import { texts } from '../texts';

const apiKeyListSchema = z.array(apiKeySchema);

/** GET /api_keys, a page at a time; `keys` is every loaded page joined (never the keys themselves). */
export function useApiKeys() {
  const api = useApi();
  const query = useInfiniteQuery({
    queryKey: queryKeys.apiKeys.list(),
    queryFn: ({ pageParam, signal }) => fetchPage(api, '/api_keys', pageParam, apiKeyListSchema, { fallbackError: texts.keysLoadFailed, signal }),
    ...pageParams,
  });
  return { ...query, keys: joinPages(query.data) };
}
