import { monitoringOverviewSchema, type MonitorSchedule } from '@common/continuous';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../../app/services';
import { ApiError } from '../../../api/http';
import { queryKeys } from '../../../api/query-keys';
import { notify } from '../../../ui/toaster';
import { texts } from '../texts';

/** PUT /project/{id}/monitoring with the schedule; the answer is the new overview (with next_run_at). */
export function useSaveSchedule(projectId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (schedule: MonitorSchedule) =>
      monitoringOverviewSchema.parse(await api.request('PUT', `/project/${encodeURIComponent(projectId)}/monitoring`, { body: schedule, fallbackError: texts.saveFailed })),
    onSuccess: (overview) => {
      queryClient.setQueryData(queryKeys.continuous.monitoring(projectId), overview);
      notify.success(texts.saved);
    },
    meta: { errorToast: (error) => [texts.saveFailed, error instanceof ApiError ? error.message : undefined] },
  });
}
