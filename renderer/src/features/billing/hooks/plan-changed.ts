import type { QueryClient } from '@tanstack/react-query';
import { queryKeys } from '../../../api/query-keys';

/** After a subscription changed: the list, and what the plan allows elsewhere (limits, the API plan), read again. */
export function refetchAfterPlanChange(queryClient: QueryClient): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.billing.subscriptions }),
    queryClient.invalidateQueries({ queryKey: queryKeys.planLimits }),
    queryClient.invalidateQueries({ queryKey: queryKeys.apiKeys.usage() }),
  ]);
}
