import { eventSchema, type ProjectEvent } from '@common/projects';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { useApi } from '../../../app/services';
import { queryKeys } from '../../../api/query-keys';

const eventListSchema = z.array(eventSchema);
const NO_EVENTS: ProjectEvent[] = [];

/**
 * GET /events/project/{id}. The spec says any failure yields an empty list: `events` is [] then, and
 * `isError` still tells the Activity tab to show 'Failed to load activity'.
 */
export function useProjectEvents(id: string) {
  const api = useApi();
  const query = useQuery({
    queryKey: queryKeys.projects.events(id),
    queryFn: async ({ signal }) =>
      eventListSchema.parse(
        await api.request('GET', `/events/project/${encodeURIComponent(id)}`, { fallbackError: 'Failed to load events', signal }),
      ),
  });
  return { ...query, events: query.data ?? NO_EVENTS };
}
