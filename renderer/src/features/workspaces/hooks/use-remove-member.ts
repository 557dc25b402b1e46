import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../../app/services';
import { ApiError } from '../../../api/http';
import { queryKeys } from '../../../api/query-keys';
import { notify } from '../../../ui/toaster';
import { texts } from '../texts';
import { workspacePath } from '../paths';

/** DELETE /workspace/{id}/members/{userId} (owner, not the owner); toasts 'Member removed' or why not. */
export function useRemoveMember(id: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => api.request<unknown>('DELETE', workspacePath('member', { id, userId }), { fallbackError: texts.removeFailed }),
    onSuccess: () => notify.success(texts.removed),
    meta: { errorToast: (error) => [texts.removeFailed, error instanceof ApiError ? error.message : undefined] },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.workspaces.members(id) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.workspaces.detail(id), exact: true });
    },
  });
}
