import { PAGE_SIZES } from '@common/pagination';
import { projectSchema, type Project } from '@common/projects';
import { useInfiniteQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { useApi } from '../app/services';
import { fetchPage, joinPages, pageParams } from './pages';
import { queryKeys } from './query-keys';

/**
 * GET /projects in pages of 200, for a project picker (the report generator's, continuous testing's). Its key sits
 * under the projects list's, so creating or deleting a project refreshes it.
 */
export function useProjectPicker() {
  const api = useApi();
  const query = useInfiniteQuery({
    queryKey: queryKeys.projects.picker(),
    queryFn: ({ pageParam, signal }) =>
      fetchPage<Project>(api, `/projects?limit=${PAGE_SIZES.projects.max}`, pageParam, z.array(projectSchema), { fallbackError: 'Failed to fetch projects', signal }),
    ...pageParams,
  });
  return { ...query, projects: joinPages(query.data) };
}
