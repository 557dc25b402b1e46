import { projectSchema } from '@common/projects';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../../app/services';
import { ApiError } from '../../../api/http';
import { queryKeys } from '../../../api/query-keys';
import { texts } from '../texts';

export const isNotFound = (error: unknown) => error instanceof ApiError && error.status === 404;

/**
 * GET /project/{id}. A 404 is the page's 'Project not found' state; other failures also toast
 * 'Failed to load project'. While a scan is queued or running the project is polled slowly, in case the live
 * stream is down.
 */
export function useProject(id: string, { enabled = true }: { enabled?: boolean } = {}) {
  const api = useApi();
  const query = useQuery({
    queryKey: queryKeys.projects.detail(id),
    // Off while the project is being deleted: a page still on screen must not fetch it again into a 404.
    enabled,
    queryFn: async ({ signal }) =>
      projectSchema.parse(
        await api.request('GET', `/project/${encodeURIComponent(id)}`, { fallbackError: 'Failed to fetch project', signal }),
      ),
    meta: { errorToast: (error) => (isNotFound(error) ? null : texts.loadProjectFailed) },
    refetchInterval: (q) => {
      const state = q.state.data?.latest_scan?.state;
      return state === 'queued' || state === 'running' ? 15_000 : false;
    },
  });
  return query;
}
