import { workspaceSchema, type WorkspaceBody } from '@common/workspaces';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../../app/services';
import { queryKeys } from '../../../api/query-keys';
import { notify } from '../../../ui/toaster';
import { texts } from '../texts';
import { workspacePath } from '../paths';

/** PATCH /workspace/{id} {name} (owner); toasts 'Workspace renamed'. A 400 stays on the mutation for the form. */
export function useRenameWorkspace(id: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: WorkspaceBody) => workspaceSchema.parse(await api.request('PATCH', workspacePath('one', { id }), { body, fallbackError: texts.renameFailed })),
    onSuccess: (workspace) => {
      queryClient.setQueryData(queryKeys.workspaces.detail(id), workspace);
      notify.success(texts.renamed);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.workspaces.list() }),
  });
}
