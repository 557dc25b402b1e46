import { projectSchema } from '@common/projects';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { z } from 'zod';
import { useApi } from '../../../app/services';
import { ApiError } from '../../../api/http';
import { queryKeys } from '../../../api/query-keys';
import { notify } from '../../../ui/toaster';
import { texts } from '../texts';

const projectListSchema = z.array(projectSchema);

/** GET /projects; a failure toasts 'Failed to load projects' once per failure (a 401 is handled globally). */
export function useProjects() {
  const api = useApi();
  const query = useQuery({
    queryKey: queryKeys.projects.list(),
    queryFn: async ({ signal }) =>
      projectListSchema.parse(await api.request('GET', '/projects', { fallbackError: 'Failed to fetch projects', signal })),
  });
  const { isError, error, errorUpdatedAt } = query;
  useEffect(() => {
    if (isError && !(error instanceof ApiError && error.status === 401)) notify.error(...texts.loadProjectsFailed);
  }, [isError, error, errorUpdatedAt]);
  return query;
}
