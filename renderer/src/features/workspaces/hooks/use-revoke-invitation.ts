import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../../app/services';
import { ApiError } from '../../../api/http';
import { queryKeys } from '../../../api/query-keys';
import { notify } from '../../../ui/toaster';
import { texts } from '../texts';
import { workspacePath } from '../paths';

/** DELETE /workspace/{id}/invitations/{invitationId} (owner); toasts 'Invitation revoked' or why not. */
export function useRevokeInvitation(id: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (invitationId: string) => api.request<unknown>('DELETE', workspacePath('invitation', { id, invitationId }), { fallbackError: texts.revokeFailed }),
    onSuccess: () => notify.success(texts.revoked),
    meta: { errorToast: (error) => [texts.revokeFailed, error instanceof ApiError ? error.message : undefined] },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.workspaces.invitations(id) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.workspaces.detail(id), exact: true });
    },
  });
}
