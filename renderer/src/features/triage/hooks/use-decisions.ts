import { decisionSchema } from '@common/triage';
import { PAGE_SIZES } from '@common/pagination';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { useApi } from '../../../app/services';
import { queryKeys } from '../../../api/query-keys';

/** GET /project/{id}/decisions: who decided about which finding, when and why (the first page, the latest first). */
export function useDecisions(projectId: string, enabled: boolean) {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.projects.decisions(projectId),
    queryFn: async ({ signal }) =>
      z
        .array(decisionSchema)
        .parse(
          await api.request('GET', `/project/${encodeURIComponent(projectId)}/decisions?limit=${PAGE_SIZES.decisions.max}`, { fallbackError: 'Failed to fetch decisions', signal }),
        ),
    enabled,
  });
}
