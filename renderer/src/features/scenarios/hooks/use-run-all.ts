import { runAllStartedSchema } from '@common/scenarios';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../../app/services';
import { ApiError } from '../../../api/http';
import { applyScenarioRun } from '../../../api/live';
import { notify } from '../../../ui/toaster';
import { scenarioCallError } from '../scenario-format';
import { CALL_NAMES, texts } from '../texts';
import { queuedRun } from './queued-run';

/**
 * POST /scenarios/run-all queues one run per scenario and answers their ids; toasts 'All test scenarios started'.
 * A failure raises 'Failed to run all test scenarios' and the screen's 'Error Running Tests'.
 */
export function useRunAll() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const body = await api.request<unknown>('POST', '/scenarios/run-all', { fallbackError: 'Failed to run all scenarios' });
      const parsed = runAllStartedSchema.safeParse(body);
      if (!parsed.success) throw new ApiError(200, 'Failed to run all scenarios', body);
      return parsed.data;
    },
    onSuccess: ({ runs }) => {
      const now = new Date();
      for (const run of runs) applyScenarioRun(queryClient, run.scenario_id, queuedRun(run.scenario_id, run.run_id, now));
      notify.success(texts.runAllStarted);
    },
    onError: (error) => {
      notify.error(texts.runAllFailed, scenarioCallError(CALL_NAMES.runAll, error));
      notify.error(...texts.runAllError);
    },
  });
}
