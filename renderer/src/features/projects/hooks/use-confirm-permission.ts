import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../../app/services';
import { ApiError } from '../../../api/http';
import { queryKeys } from '../../../api/query-keys';
import { texts } from '../texts';

/** PATCH /project/{id} {permission_confirmed: true}: the server keeps when permission to test the site was stated. */
export function useConfirmPermission(id: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.request<unknown>('PATCH', `/project/${encodeURIComponent(id)}`, { body: { permission_confirmed: true }, fallbackError: texts.permissionFailed }),
    meta: { errorToast: (error) => [texts.permissionFailed, error instanceof ApiError ? error.message : undefined] },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.projects.detail(id) }),
  });
}
