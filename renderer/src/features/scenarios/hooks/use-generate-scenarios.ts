import { scenarioProposalsSchema } from '@common/scenarios';
import { useMutation } from '@tanstack/react-query';
import { useApi } from '../../../app/services';
import { ApiError } from '../../../api/http';

/**
 * POST /scenarios/generate {project_id}: proposals from the project's site, nothing saved. The server's detail
 * (422 when nothing can be proposed, 504 when the AI provider timed out) is the error's message.
 */
export function useGenerateScenarios() {
  const api = useApi();
  return useMutation({
    mutationFn: async (projectId: string) => {
      const body = await api.request<unknown>('POST', '/scenarios/generate', { body: { project_id: projectId }, fallbackError: 'Failed to generate scenarios' });
      const parsed = scenarioProposalsSchema.safeParse(body);
      if (!parsed.success) throw new ApiError(200, 'Failed to generate scenarios', body);
      return parsed.data.proposals;
    },
  });
}
