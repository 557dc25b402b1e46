import { scanDiffSchema } from '@common/scan-history';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useApi } from '../../../app/services';
import { queryKeys } from '../../../api/query-keys';
import { historyTexts } from '../history-texts';

/**
 * GET /project/{id}/scans/diff: what is new, fixed and unchanged from `from` to `to` (null: the server's default,
 * the latest completed scan against the one before). Asked only once the project has a completed scan.
 */
export function useScanDiff(id: string, from: string | null, to: string | null, enabled: boolean) {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.projects.scanDiff(id, from, to),
    queryFn: async ({ signal }) => {
      const query = new URLSearchParams();
      if (from) query.set('from', from);
      if (to) query.set('to', to);
      const search = query.size ? `?${query.toString()}` : '';
      return scanDiffSchema.parse(await api.request('GET', `/project/${encodeURIComponent(id)}/scans/diff${search}`, { fallbackError: historyTexts.diffFailed, signal }));
    },
    enabled,
    // Another pair chosen: the lists stay on screen until the new answer replaces them.
    placeholderData: keepPreviousData,
  });
}
