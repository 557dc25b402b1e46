import type { Page } from '@common/pagination';
import { eventSchema, type ProjectEvent } from '@common/projects';
import { useInfiniteQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { z } from 'zod';
import { useApi } from '../../app/services';
import { ApiError, type ApiClient } from '../../api/http';
import { useLiveMessages } from '../../api/live';
import { fetchPage, joinPages, pageParams } from '../../api/pages';
import { queryKeys } from '../../api/query-keys';
import { NO_EVENT_FILTERS, RECENT_EVENTS_LIMIT, filterParams, matchesFilters, prependEvent, type EventFilterValues } from './event-rows';

/** The spec's messages for a failed events load (section 8). */
export const EVENTS_ERRORS = {
  auth: 'Authentication error. Please login again.',
  response: 'Failed to load events',
  unexpected: 'An unexpected error occurred',
} as const;

const eventsResponseSchema = z.array(eventSchema);

/**
 * GET /events/recent?limit=30, and the pages after it (`cursor`). Failures read as the spec says: no token, a
 * bad response (an error status or a body that is not a list of events), or anything else. A 401 stays an
 * ApiError with status 401 so the query client's one 401 handler still signs the user out.
 */
export async function fetchRecentEvents(
  api: ApiClient,
  signal?: AbortSignal,
  cursor: string | null = null,
  filters: EventFilterValues = NO_EVENT_FILTERS,
): Promise<Page<ProjectEvent>> {
  const query = new URLSearchParams({ limit: String(RECENT_EVENTS_LIMIT), ...filterParams(filters) });
  try {
    return await fetchPage(api, `/events/recent?${query.toString()}`, cursor, eventsResponseSchema, { fallbackError: EVENTS_ERRORS.response, signal });
  } catch (error) {
    if (error instanceof ApiError) {
      throw new ApiError(error.status, error.status === 401 ? EVENTS_ERRORS.auth : EVENTS_ERRORS.response, error.body);
    }
    // An aborted request (the page was left) is not an error to show.
    if (signal?.aborted) throw error;
    throw new Error(EVENTS_ERRORS.unexpected, { cause: error });
  }
}

/**
 * The signed-in user's 30 most recent events that pass the filters, newest first, and older ones a page at a time
 * (`fetchNextPage`); `data` is every loaded event. Events from the live stream that pass the filters show up at once.
 */
export function useRecentEvents(filters: EventFilterValues = NO_EVENT_FILTERS) {
  const queryKey = queryKeys.events.recent(RECENT_EVENTS_LIMIT, filterParams(filters));
  const api = useApi();
  const queryClient = useQueryClient();
  useLiveMessages((message) => {
    // The live layer also invalidates the events keys (a refetch confirms); this shows the row without waiting.
    if (message.type !== 'event' || !matchesFilters(message.event, message.project_id, filters)) return;
    queryClient.setQueryData<InfiniteData<Page<ProjectEvent>, string | null>>(queryKey, (data) => {
      const [first, ...rest] = data?.pages ?? [];
      if (!data || !first) return data;
      // Nothing is cut from the first page: the next page starts after its last row.
      return { ...data, pages: [{ ...first, items: prependEvent(first.items, message.event, first.items.length + 1) }, ...rest] };
    });
  });
  const query = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam, signal }) => fetchRecentEvents(api, signal, pageParam, filters),
    ...pageParams,
  });
  return { ...query, data: query.data ? joinPages(query.data) : undefined };
}
