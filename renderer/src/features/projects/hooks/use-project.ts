import { projectSchema } from '@common/projects';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useApi } from '../../../app/services';
import { ApiError, type ApiClient } from '../../../api/http';
import { queryKeys } from '../../../api/query-keys';
import { texts } from '../texts';

export const isNotFound = (error: unknown) => error instanceof ApiError && error.status === 404;

/**
 * GET /project/{id}. A 404 is the page's 'Project not found' state; other failures also toast
 * 'Failed to load project'. While a scan is queued or running the project is polled slowly, in case the live
 * stream is down.
 */
/** GET /project/{id}'s query, also asked before the first render of a signed-in project page (app/first-render.ts). */
export const projectQuery = (api: ApiClient, id: string) =>
  queryOptions({
    queryKey: queryKeys.projects.detail(id),
    queryFn: async ({ signal }) => projectSchema.parse(await api.request('GET', `/project/${encodeURIComponent(id)}`, { fallbackError: 'Failed to fetch project', signal })),
    meta: { errorToast: (error: unknown) => (isNotFound(error) ? null : texts.loadProjectFailed) },
  });

export function useProject(id: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    ...projectQuery(useApi(), id),
    // Off while the project is being deleted: a page still on screen must not fetch it again into a 404.
    enabled,
    refetchInterval: (q) => {
      const state = q.state.data?.latest_scan?.state;
      return state === 'queued' || state === 'running' ? 15_000 : false;
    },
  });
}
