import { useMutation } from '@tanstack/react-query';
import { useApi } from '../../../app/services';
import { ApiError } from '../../../api/http';
import { notify } from '../../../ui/toaster';
import { texts } from '../texts';
import { workspacePath } from '../paths';
import { useCurrentWorkspace } from '../workspace-context';

/** POST /workspace/{id}/leave (a member): then back to the personal workspace, its cache new; toasts 'You left the workspace'. */
export function useLeaveWorkspace(id: string) {
  const api = useApi();
  const { personalId, switchTo } = useCurrentWorkspace();
  return useMutation({
    mutationFn: () => api.request<unknown>('POST', workspacePath('leave', { id }), { fallbackError: texts.leaveFailed }),
    onSuccess: async () => {
      notify.success(texts.left);
      if (personalId) await switchTo(personalId);
    },
    meta: { errorToast: (error) => [texts.leaveFailed, error instanceof ApiError ? error.message : undefined] },
  });
}
