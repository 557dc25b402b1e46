import { siteTokenSchema, type MonitoringOverview } from '@common/continuous';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../../app/services';
import { ApiError } from '../../../api/http';
import { queryKeys } from '../../../api/query-keys';
import { notify } from '../../../ui/toaster';
import { texts } from '../texts';

/** POST /project/{id}/site_token: a new site token; pages still carrying the old one stop reporting. */
export function useRotateSiteToken(projectId: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => siteTokenSchema.parse(await api.request('POST', `/project/${encodeURIComponent(projectId)}/site_token`, { fallbackError: texts.rotateFailed })),
    onSuccess: ({ site_token: siteToken }) => {
      queryClient.setQueryData<MonitoringOverview>(queryKeys.continuous.monitoring(projectId), (overview) => (overview ? { ...overview, site_token: siteToken } : overview));
      notify.success(texts.rotated, texts.rotatedHint);
    },
    meta: { errorToast: (error) => [texts.rotateFailed, error instanceof ApiError ? error.message : undefined] },
    // GET /project/{id} carries the token too.
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.projects.detail(projectId), exact: true }),
  });
}
