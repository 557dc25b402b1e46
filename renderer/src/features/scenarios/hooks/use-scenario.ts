import { scenarioDetailSchema, type ScenarioDetail } from '@common/scenarios';
import { useQueries, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useApi } from '../../../app/services';
import type { ApiClient } from '../../../api/http';
import { ApiError } from '../../../api/http';
import { applyScenarioRun } from '../../../api/live';
import { queryKeys } from '../../../api/query-keys';
import { isActiveRun } from '../scenario-format';

/** While a run is queued or running, its scenario is asked for again this often (the live stream may be down). */
export const RUN_POLL_MS = 1500;

async function fetchScenario(api: ApiClient, queryClient: QueryClient, id: string, signal: AbortSignal): Promise<ScenarioDetail> {
  const body = await api.request<unknown>('GET', `/scenario/${encodeURIComponent(id)}`, { fallbackError: 'Failed to fetch scenario', signal });
  const parsed = scenarioDetailSchema.safeParse(body);
  if (!parsed.success) throw new ApiError(200, 'Failed to fetch scenario', body);
  // The newest run also updates the list's row, the same way a live message does.
  const newest = parsed.data.runs[0];
  if (newest) applyScenarioRun(queryClient, id, newest);
  return parsed.data;
}

const pollWhileActive = (detail: ScenarioDetail | undefined) => (isActiveRun(detail?.runs[0]?.status) ? RUN_POLL_MS : false);

/** GET /scenario/{id}: the scenario and its runs, newest first; polled while its newest run is not finished. */
export function useScenario(id: string | null) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: queryKeys.scenarios.detail(id ?? ''),
    queryFn: ({ signal }) => fetchScenario(api, queryClient, id ?? '', signal),
    enabled: id !== null,
    refetchInterval: (query) => pollWhileActive(query.state.data),
  });
}

/**
 * The fallback to the live stream for runs in progress: each listed scenario (the caller lists those with a run
 * not yet finished) is polled. Answers the details fetched so far, by scenario id.
 */
export function useRunPolling(ids: string[]): Map<string, ScenarioDetail> {
  const api = useApi();
  const queryClient = useQueryClient();
  return useQueries({
    queries: ids.map((id) => ({
      queryKey: queryKeys.scenarios.detail(id),
      queryFn: ({ signal }: { signal: AbortSignal }) => fetchScenario(api, queryClient, id, signal),
      refetchInterval: RUN_POLL_MS,
    })),
    combine: (results) => {
      const byId = new Map<string, ScenarioDetail>();
      for (const result of results) if (result.data) byId.set(result.data.id, result.data);
      return byId;
    },
  });
}
