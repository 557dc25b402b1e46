import { eventSchema, type ProjectEvent } from '@common/projects';
import { useInfiniteQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { useApi } from '../../../app/services';
import { fetchPage, joinPages, pageParams } from '../../../api/pages';
import { queryKeys } from '../../../api/query-keys';

const eventListSchema = z.array(eventSchema);
const NO_EVENTS: ProjectEvent[] = [];
/** Events per request: a scan records one per request it makes. */
const EVENTS_PER_PAGE = 100;

/**
 * GET /events/project/{id}, a page at a time. The spec says any failure yields an empty list: `events` is []
 * then, and `isError` still tells the Activity tab to show 'Failed to load activity'.
 */
export function useProjectEvents(id: string) {
  const api = useApi();
  const query = useInfiniteQuery({
    queryKey: queryKeys.projects.events(id),
    queryFn: ({ pageParam, signal }) =>
      fetchPage(api, `/events/project/${encodeURIComponent(id)}?limit=${EVENTS_PER_PAGE}`, pageParam, eventListSchema, { fallbackError: 'Failed to load events', signal }),
    ...pageParams,
  });
  const events = joinPages(query.data);
  return { ...query, events: query.data ? events : NO_EVENTS };
}
