import { domainSchema } from '@common/domains';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../../app/services';
import { ApiError } from '../../../api/http';
import { queryKeys } from '../../../api/query-keys';
import { notify } from '../../../ui/toaster';
import { texts } from '../texts';

/** POST /domains/{id}/verify: both proofs checked now; toasts the outcome (a failed check's reason shows on the row). */
export function useVerifyDomain() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => domainSchema.parse(await api.request('POST', `/domains/${encodeURIComponent(id)}/verify`, { fallbackError: texts.verifyFailed })),
    onSuccess: (domain) => (domain.state === 'verified' ? notify.success(texts.verified) : notify.error(texts.notVerified, domain.last_error ?? undefined)),
    meta: { errorToast: (error) => [error instanceof ApiError ? error.message : texts.verifyFailed] },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.domains.list() }),
  });
}
