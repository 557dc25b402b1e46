import { apiUsageSchema } from '@common/api-keys';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../../app/services';
import { queryKeys } from '../../../api/query-keys';
import { texts } from '../texts';

/** GET /api_usage: the API plan, today's requests to /v1, the daily limit and when it resets. */
export function useApiUsage() {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.apiKeys.usage(),
    queryFn: async ({ signal }) => apiUsageSchema.parse(await api.request('GET', '/api_usage', { fallbackError: texts.usageLoadFailed, signal })),
  });
}
