import { projectScanResponseSchema } from '@common/projects';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../../app/services';
import { queryKeys } from '../../../api/query-keys';

/**
 * GET /project/{id}/scan: the latest scan in full with what changed since the previous one. Only asked once
 * the project has a scan; the live stream invalidates it when the scan's state changes.
 */
export function useProjectScan(id: string, enabled: boolean) {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.projects.scan(id),
    queryFn: async ({ signal }) =>
      projectScanResponseSchema.parse(await api.request('GET', `/project/${encodeURIComponent(id)}/scan`, { fallbackError: 'Failed to fetch scan', signal })),
    enabled,
  });
}
