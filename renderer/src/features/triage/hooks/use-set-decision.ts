import type { DecisionBody } from '@common/triage';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../../app/services';
import { queryKeys } from '../../../api/query-keys';
import { notify } from '../../../ui/toaster';
import { TRIAGE_UI } from '../texts';

/** PUT /project/{id}/decisions/{fingerprint}; the scan view and the decisions refetch; toasts what was saved. */
export function useSetDecision(projectId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ fingerprint, body }: { fingerprint: string; body: DecisionBody }) =>
      api.request<unknown>('PUT', `/project/${encodeURIComponent(projectId)}/decisions/${encodeURIComponent(fingerprint)}`, { body, fallbackError: TRIAGE_UI.saveFailed }),
    onSuccess: (_answer, { body }) => notify.success(body.decision === 'false_positive' ? TRIAGE_UI.savedFalsePositive : TRIAGE_UI.savedAcceptedRisk),
    meta: { errorToast: (error) => [TRIAGE_UI.saveFailed, error instanceof Error ? error.message : undefined] },
    // The project (its scan, grade and decisions, all under its key) and the list's cards show the new numbers.
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.projects.detail(projectId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.projects.list() }),
      ]);
    },
  });
}
