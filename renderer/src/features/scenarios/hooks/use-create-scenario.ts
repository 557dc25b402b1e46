import { scenarioSchema, type CreateScenarioBody } from '@common/scenarios';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../../app/services';
import { ApiError } from '../../../api/http';
import { queryKeys } from '../../../api/query-keys';

/** POST /scenarios saves one scenario (a 400 carries the detail of the step that does not validate). */
export function useCreateScenario() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: CreateScenarioBody) => {
      const answer = await api.request<unknown>('POST', '/scenarios', { body, fallbackError: 'Failed to save scenario' });
      const parsed = scenarioSchema.safeParse(answer);
      if (!parsed.success) throw new ApiError(200, 'Failed to save scenario', answer);
      return parsed.data;
    },
    // The plan's count of scenarios held changed too (the generate dialog says how many more fit).
    onSettled: () => Promise.all([queryClient.invalidateQueries({ queryKey: queryKeys.scenarios.list() }), queryClient.invalidateQueries({ queryKey: queryKeys.planLimits })]),
  });
}
