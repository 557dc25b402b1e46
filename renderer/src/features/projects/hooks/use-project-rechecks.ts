import { recheckSchema, type Recheck } from '@common/rechecks';
import { useInfiniteQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { useApi } from '../../../app/services';
import { fetchPage, joinPages, pageParams } from '../../../api/pages';
import { queryKeys } from '../../../api/query-keys';
import { historyTexts } from '../history-texts';

const rechecksSchema = z.array(recheckSchema);
const NONE: Recheck[] = [];
const PER_PAGE = 20;

/** GET /project/{id}/rechecks, a page at a time, newest first: the project's checks again and their answers. */
export function useProjectRechecks(id: string) {
  const api = useApi();
  const query = useInfiniteQuery({
    queryKey: queryKeys.projects.rechecks(id),
    queryFn: ({ pageParam, signal }) =>
      fetchPage(api, `/project/${encodeURIComponent(id)}/rechecks?limit=${PER_PAGE}`, pageParam, rechecksSchema, { fallbackError: historyTexts.rechecksFailed, signal }),
    ...pageParams,
  });
  return { ...query, rechecks: query.data ? joinPages(query.data) : NONE };
}
