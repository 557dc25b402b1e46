import { workspaceSchema } from '@common/workspaces';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../../app/services';
import { ApiError } from '../../../api/http';
import { queryKeys } from '../../../api/query-keys';
import { notify } from '../../../ui/toaster';
import { texts } from '../texts';
import { workspacePath } from '../paths';

/** POST /workspace/{id}/transfer {user_id} (owner): the member becomes owner; toasts 'Ownership transferred'. */
export function useTransferOwnership(id: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (userId: string) =>
      workspaceSchema.parse(await api.request('POST', workspacePath('transfer', { id }), { body: { user_id: userId }, fallbackError: texts.transferFailed })),
    onSuccess: (workspace) => {
      queryClient.setQueryData(queryKeys.workspaces.detail(id), workspace);
      // The owner's page had the invitations; a member's has none.
      queryClient.removeQueries({ queryKey: queryKeys.workspaces.invitations(id) });
      notify.success(texts.transferred);
    },
    meta: { errorToast: (error) => [texts.transferFailed, error instanceof ApiError ? error.message : undefined] },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.workspaces.members(id) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.workspaces.list() });
    },
  });
}
