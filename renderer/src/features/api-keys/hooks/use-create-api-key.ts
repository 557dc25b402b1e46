import { createApiKeyBodySchema, createdApiKeySchema } from '@common/api-keys';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../../app/services';
import { ApiError } from '../../../api/http';
import { queryKeys } from '../../../api/query-keys';
import { notify } from '../../../ui/toaster';
import { texts } from '../texts';

/** POST /api_keys {name}: the answer holds the key, the only time it is sent; toasts the server's reason on failure. */
export function useCreateApiKey() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) => {
      const body = createApiKeyBodySchema.parse({ name });
      return createdApiKeySchema.parse(await api.request('POST', '/api_keys', { body, fallbackError: texts.createFailed }));
    },
    onSuccess: () => notify.success(texts.created),
    meta: { errorToast: (error) => [texts.createFailed, error instanceof ApiError ? error.message : undefined] },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.apiKeys.list() }),
  });
}
