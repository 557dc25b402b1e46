import { runStartedSchema } from '@common/scenarios';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../../app/services';
import { ApiError } from '../../../api/http';
import { applyScenarioRun } from '../../../api/live';
import { notify } from '../../../ui/toaster';
import { scenarioCallError } from '../scenario-format';
import { CALL_NAMES, texts } from '../texts';
import { queuedRun } from './queued-run';

/**
 * POST /scenario/{id}/run queues a run; toasts 'Test scenario started', or 'Failed to run test scenario' with
 * 'Failed to run scenario: {status} - {text}' (409 when one is already running).
 */
export function useRunScenario() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      const body = await api.request<unknown>('POST', `/scenario/${encodeURIComponent(id)}/run`, { fallbackError: 'Failed to run scenario' });
      const parsed = runStartedSchema.safeParse(body);
      if (!parsed.success) throw new ApiError(200, 'Failed to run scenario', body);
      return { id, runId: parsed.data.run_id };
    },
    onSuccess: ({ id, runId }) => {
      applyScenarioRun(queryClient, id, queuedRun(id, runId));
      notify.success(texts.runStarted);
    },
    meta: { errorToast: (error) => [texts.runFailed, scenarioCallError(CALL_NAMES.run, error)], toastUnauthorized: true },
  });
}
