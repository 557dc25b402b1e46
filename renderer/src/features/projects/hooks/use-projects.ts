import { projectSchema } from '@common/projects';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { useApi } from '../../../app/services';
import type { ApiClient } from '../../../api/http';
import { fetchPage, joinPages, pageParams } from '../../../api/pages';
import { queryKeys } from '../../../api/query-keys';
import { texts } from '../texts';

const projectListSchema = z.array(projectSchema);

/** The project list's query, also asked before the first render of a signed-in /dashboard/projects (app/first-render.ts). */
export const projectsQuery = (api: ApiClient) =>
  infiniteQueryOptions({
    queryKey: queryKeys.projects.list(),
    queryFn: ({ pageParam, signal }) => fetchPage(api, '/projects', pageParam, projectListSchema, { fallbackError: 'Failed to fetch projects', signal }),
    meta: { errorToast: texts.loadProjectsFailed },
    ...pageParams,
  });

/**
 * GET /projects, a page at a time (`fetchNextPage` loads the next); `projects` is every loaded page joined.
 * A failure toasts 'Failed to load projects' once per failure (a 401 is handled globally).
 */
export function useProjects() {
  const query = useInfiniteQuery(projectsQuery(useApi()));
  return { ...query, projects: joinPages(query.data) };
}
