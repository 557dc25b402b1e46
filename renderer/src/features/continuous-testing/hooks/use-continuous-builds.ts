import { continuousBuildSchema } from '@common/continuous';
import { useInfiniteQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { useApi } from '../../../app/services';
import { fetchPage, joinPages, pageParams } from '../../../api/pages';
import { queryKeys } from '../../../api/query-keys';
import { buildsCallError } from '../continuous-format';
import { texts } from '../texts';

const buildListSchema = z.array(continuousBuildSchema);
/** Builds per request: a busy site makes at most a dozen a day. */
const BUILDS_PER_PAGE = 25;

/**
 * GET /continuous_builds?project_id=..., newest first, a page at a time; `builds` is every loaded page joined.
 * A failure toasts 'Failed to load continuous builds' with 'Failed to fetch continuous builds: {status} - {text}'
 * (a 401 is handled once, by the query client).
 */
export function useContinuousBuilds(projectId: string | null) {
  const api = useApi();
  const query = useInfiniteQuery({
    queryKey: queryKeys.continuous.builds(projectId ?? ''),
    queryFn: ({ pageParam, signal }) =>
      fetchPage(api, `/continuous_builds?project_id=${encodeURIComponent(projectId ?? '')}&limit=${BUILDS_PER_PAGE}`, pageParam, buildListSchema, {
        fallbackError: 'Failed to fetch continuous builds',
        signal,
      }),
    ...pageParams,
    enabled: projectId !== null,
    meta: { errorToast: (error) => [texts.buildsFailed, buildsCallError(error)] },
  });
  return { ...query, builds: joinPages(query.data) };
}
