import { domainBodySchema, domainSchema } from '@common/domains';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../../app/services';
import { ApiError } from '../../../api/http';
import { queryKeys } from '../../../api/query-keys';
import { notify } from '../../../ui/toaster';
import { texts } from '../texts';

/** POST /domains {domain}: answers the domain with its token; a failure toasts the server's detail. */
export function useAddDomain() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (domain: string) => {
      const body = domainBodySchema.parse({ domain });
      return domainSchema.parse(await api.request('POST', '/domains', { body, fallbackError: texts.addFailed }));
    },
    onSuccess: () => notify.success(texts.added),
    meta: { errorToast: (error) => [error instanceof ApiError ? error.message : texts.addFailed] },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.domains.list() }),
  });
}
