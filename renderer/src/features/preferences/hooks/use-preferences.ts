import { preferencesSchema } from '@common/preferences';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../../app/services';
import { queryKeys } from '../../../api/query-keys';
import { texts } from '../texts';

/** GET /preferences: email and webhook notifications ('Failed to load preferences' when the server gives no reason). */
export function usePreferences() {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.preferences,
    queryFn: async ({ signal }) => preferencesSchema.parse(await api.request('GET', '/preferences', { fallbackError: texts.loadFailed, signal })),
  });
}
