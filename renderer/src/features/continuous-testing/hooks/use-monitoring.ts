import { monitoringOverviewSchema } from '@common/continuous';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../../app/services';
import { queryKeys } from '../../../api/query-keys';
import { texts } from '../texts';

/**
 * GET /project/{id}/monitoring: the current build, the last scan's grade, the schedule with its next run, this
 * month's usage and the site token. The page shows 'Failed to load continuous testing data. Please try again.'
 * when it fails; the live stream refreshes it when a build is made or judged.
 */
export function useMonitoring(projectId: string | null) {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.continuous.monitoring(projectId ?? ''),
    queryFn: async ({ signal }) =>
      monitoringOverviewSchema.parse(await api.request('GET', `/project/${encodeURIComponent(projectId ?? '')}/monitoring`, { fallbackError: texts.loadFailed, signal })),
    enabled: projectId !== null,
  });
}
