import { isRecheckFinished, RECHECK_TIMEOUT_MS, recheckSchema, type Recheck } from '@common/rechecks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../../app/services';
import type { ApiClient } from '../../../api/http';
import { queryKeys } from '../../../api/query-keys';
import { notify } from '../../../ui/toaster';
import { texts } from '../texts';
import { NO_BODY } from '../../../api/http';

/** While a check again is queued or running it is asked after this often (it takes seconds). */
export const RECHECK_POLL_MS = 1000;
/** Beyond its own time limit, how long a check again may wait in the queue before the button gives up on it. */
const QUEUE_WAIT_MS = 2 * 60_000;

/** The check again once it has finished: asked after every RECHECK_POLL_MS; a failed one is an error with its reason. */
async function settled(api: ApiClient, projectId: string, queued: Recheck): Promise<Recheck> {
  const deadline = Date.now() + RECHECK_TIMEOUT_MS + QUEUE_WAIT_MS;
  let recheck = queued;
  while (!isRecheckFinished(recheck.state)) {
    if (Date.now() > deadline) throw new Error(texts.recheckSlow);
    await new Promise((resolve) => setTimeout(resolve, RECHECK_POLL_MS));
    recheck = recheckSchema.parse(
      await api.request('GET', `/project/${encodeURIComponent(projectId)}/rechecks/${encodeURIComponent(recheck.id)}`, { fallbackError: texts.recheckFailed }),
    );
  }
  if (recheck.state === 'failed') throw new Error(recheck.error ?? texts.recheckFailed);
  return recheck;
}

/**
 * POST /project/{id}/findings/{fingerprint}/recheck: 'Check again' on one finding. The server queues it (202) and
 * the job queue runs it; the mutation lasts until its answer (the button says 'Checking…' meanwhile), then toasts what
 * it found. The answer also joins the project's activity and its History (both refetched).
 */
export function useRecheckFinding(projectId: string, fingerprint: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (): Promise<Recheck> => {
      const queued = recheckSchema.parse(
        await api.request('POST', `/project/${encodeURIComponent(projectId)}/findings/${encodeURIComponent(fingerprint)}/recheck`, {
          body: NO_BODY,
          fallbackError: texts.recheckFailed,
        }),
      );
      return settled(api, projectId, queued);
    },
    onSuccess: (answer) => {
      if (answer.status === 'fixed') notify.success(texts.recheckFixed, texts.recheckFixedDetail);
      else if (answer.status === 'still_there') notify.warning(texts.recheckStill, texts.recheckStillDetail);
      else notify.info(texts.recheckUnknown, answer.reason ?? undefined);
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.projects.events(projectId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.projects.rechecks(projectId) });
    },
    meta: { errorToast: (error) => [texts.recheckFailed, error instanceof Error ? error.message : undefined] },
  });
}
