import { planLimitsResponseSchema } from '@common/plan-limits';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../app/services';
import { queryKeys } from './query-keys';

/**
 * GET /plan_limits: what the account's plan allows, for screens that offer only that (the report downloads). The
 * server enforces every limit itself; until this answers, or if it fails, screens offer everything and the
 * server's refusal brings the upgrade prompt.
 */
export function usePlanLimits({ fresh = false }: { fresh?: boolean } = {}) {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.planLimits,
    queryFn: async ({ signal }) => planLimitsResponseSchema.parse(await api.request('GET', '/plan_limits', { fallbackError: 'Failed to load your plan', signal })),
    staleTime: 60_000,
    // `fresh`: a screen that shows what is used (the scenarios still allowed) reads it again when it opens.
    refetchOnMount: fresh ? 'always' : true,
  });
}
