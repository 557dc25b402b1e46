import { workspaceSchema, type WorkspaceBody } from '@common/workspaces';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../../app/services';
import { queryKeys } from '../../../api/query-keys';
import { notify } from '../../../ui/toaster';
import { texts } from '../texts';
import { workspacePath } from '../paths';

/** POST /workspaces; toasts 'Workspace created'. A 400 stays on the mutation for the dialog to show under its field. */
export function useCreateWorkspace() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: WorkspaceBody) => workspaceSchema.parse(await api.request('POST', workspacePath('list'), { body, fallbackError: texts.createFailed })),
    onSuccess: () => notify.success(texts.created),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.workspaces.list() }),
  });
}
