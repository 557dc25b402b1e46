import { PAGE_SIZES } from '@common/pagination';
import { projectSchema, type Project } from '@common/projects';
import { useInfiniteQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { useApi } from '../../../app/services';
import { fetchPage, joinPages, pageParams } from '../../../api/pages';
import { queryKeys } from '../../../api/query-keys';

/**
 * GET /projects in pages of 200 for the project picker. It shares the report generator's picker key (the same
 * call), which sits under the projects list's key so creating or deleting a project refreshes it.
 */
export function useMonitoredProjects() {
  const api = useApi();
  const query = useInfiniteQuery({
    queryKey: queryKeys.projects.picker(),
    queryFn: ({ pageParam, signal }) =>
      fetchPage<Project>(api, `/projects?limit=${PAGE_SIZES.projects.max}`, pageParam, z.array(projectSchema), { fallbackError: 'Failed to fetch projects', signal }),
    ...pageParams,
  });
  return { ...query, projects: joinPages(query.data) };
}
