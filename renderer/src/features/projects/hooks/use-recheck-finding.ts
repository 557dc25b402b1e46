import { recheckResponseSchema, type RecheckResponse } from '@common/rechecks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../../app/services';
import { queryKeys } from '../../../api/query-keys';
import { notify } from '../../../ui/toaster';
import { texts } from '../texts';
import { NO_BODY } from '../../../api/http';

/**
 * POST /project/{id}/findings/{fingerprint}/recheck: 'Check again' on one finding. Toasts what it found; the answer
 * also joins the project's activity (refetched).
 */
export function useRecheckFinding(projectId: string, fingerprint: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (): Promise<RecheckResponse> =>
      recheckResponseSchema.parse(
        await api.request('POST', `/project/${encodeURIComponent(projectId)}/findings/${encodeURIComponent(fingerprint)}/recheck`, { body: NO_BODY, fallbackError: texts.recheckFailed }),
      ),
    onSuccess: (answer) => {
      if (answer.status === 'fixed') notify.success(texts.recheckFixed, texts.recheckFixedDetail);
      else if (answer.status === 'still_there') notify.warning(texts.recheckStill, texts.recheckStillDetail);
      else notify.info(texts.recheckUnknown, answer.reason ?? undefined);
      void queryClient.invalidateQueries({ queryKey: queryKeys.projects.events(projectId) });
    },
    meta: { errorToast: (error) => [texts.recheckFailed, error instanceof Error ? error.message : undefined] },
  });
}
