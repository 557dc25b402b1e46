import { preferencesSchema, type Preferences, type PreferencesPatch } from '@common/preferences';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../../app/services';
import { ApiError } from '../../../api/http';
import { queryKeys } from '../../../api/query-keys';
import { notify } from '../../../ui/toaster';
import { texts } from '../texts';

/**
 * PATCH /preferences with the one switch changed: shown at once, put back as it was if the save fails (with a
 * toast of the server's reason).
 */
export function useUpdatePreferences() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (patch: PreferencesPatch) => preferencesSchema.parse(await api.request('PATCH', '/preferences', { body: patch, fallbackError: texts.saveFailed })),
    onMutate: async (patch) => {
      await queryClient.cancelQueries({ queryKey: queryKeys.preferences });
      const previous = queryClient.getQueryData<Preferences>(queryKeys.preferences);
      if (previous) queryClient.setQueryData<Preferences>(queryKeys.preferences, { ...previous, ...patch });
      return { previous };
    },
    onSuccess: (stored) => queryClient.setQueryData(queryKeys.preferences, stored),
    onError: (error, _patch, context) => {
      if (context?.previous) queryClient.setQueryData(queryKeys.preferences, context.previous);
      notify.error(texts.saveFailed, error instanceof ApiError && error.message !== texts.saveFailed ? error.message : undefined);
    },
  });
}
