import { workspaceSchema } from '@common/workspaces';
import { useMutation } from '@tanstack/react-query';
import { useApi } from '../../../app/services';
import { notify } from '../../../ui/toaster';
import { texts } from '../texts';
import { workspacePath } from '../paths';
import { useCurrentWorkspace } from '../workspace-context';

/**
 * POST /invitations/accept {token}: joins, then works in the workspace joined (its projects screen). A refusal
 * (invalid or expired, used, another address) stays on the mutation for the page to show with a way on.
 */
export function useAcceptInvitation() {
  const api = useApi();
  const { switchTo } = useCurrentWorkspace();
  return useMutation({
    mutationFn: async (token: string) => workspaceSchema.parse(await api.request('POST', workspacePath('accept'), { body: { token }, fallbackError: texts.joinFailed })),
    onSuccess: async (workspace) => {
      notify.success(texts.joined(workspace.name));
      await switchTo(workspace.id);
    },
  });
}
