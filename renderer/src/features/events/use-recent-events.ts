import { eventSchema, type ProjectEvent } from '@common/projects';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { useApi } from '../../app/services';
import { ApiError, type ApiClient } from '../../api/http';
import { useLiveMessages } from '../../api/live';
import { queryKeys } from '../../api/query-keys';
import { RECENT_EVENTS_LIMIT, prependEvent } from './event-rows';

/** The spec's messages for a failed events load (section 8). */
export const EVENTS_ERRORS = {
  auth: 'Authentication error. Please login again.',
  response: 'Failed to load events',
  unexpected: 'An unexpected error occurred',
} as const;

const eventsResponseSchema = z.array(eventSchema);

/**
 * GET /events/recent?limit=30. Failures read as the spec says: no token, a bad response (an error status or
 * a body that is not a list of events), or anything else. A 401 stays an ApiError with status 401 so the
 * query client's one 401 handler still signs the user out.
 */
export async function fetchRecentEvents(api: ApiClient, signal?: AbortSignal): Promise<ProjectEvent[]> {
  let body: unknown;
  try {
    body = await api.request<unknown>('GET', `/events/recent?limit=${RECENT_EVENTS_LIMIT}`, {
      fallbackError: EVENTS_ERRORS.response,
      signal,
    });
  } catch (error) {
    if (error instanceof ApiError) {
      throw new ApiError(error.status, error.status === 401 ? EVENTS_ERRORS.auth : EVENTS_ERRORS.response, error.body);
    }
    // An aborted request (the page was left) is not an error to show.
    if (signal?.aborted) throw error;
    throw new Error(EVENTS_ERRORS.unexpected, { cause: error });
  }
  const parsed = eventsResponseSchema.safeParse(body);
  if (!parsed.success) throw new ApiError(200, EVENTS_ERRORS.response, body);
  return parsed.data;
}

/** The signed-in user's 30 most recent events, newest first; events from the live stream show up at once. */
export function useRecentEvents() {
  const api = useApi();
  const queryClient = useQueryClient();
  useLiveMessages((message) => {
    // The live layer also invalidates the events keys (a refetch confirms); this shows the row without waiting.
    if (message.type !== 'event') return;
    queryClient.setQueryData<ProjectEvent[]>(queryKeys.events.recent(RECENT_EVENTS_LIMIT), (events) =>
      events ? prependEvent(events, message.event) : events,
    );
  });
  return useQuery({
    queryKey: queryKeys.events.recent(RECENT_EVENTS_LIMIT),
    queryFn: ({ signal }) => fetchRecentEvents(api, signal),
  });
}
