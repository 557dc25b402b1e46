import { invitationPreviewSchema } from '@common/workspaces';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../../app/services';
import { queryKeys } from '../../../api/query-keys';
import { texts } from '../texts';
import { workspacePath } from '../paths';

/** POST /invitations/preview {token}: the workspace, who invited and the address, before joining. */
export function useInvitationPreview(token: string | null, { enabled }: { enabled: boolean }) {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.workspaces.preview(token ?? ''),
    queryFn: async ({ signal }) =>
      invitationPreviewSchema.parse(await api.request('POST', workspacePath('preview'), { body: { token }, fallbackError: texts.invitationInvalid, signal })),
    enabled: enabled && token !== null,
    // An invitation does not change while the page is open; a refusal will not either.
    staleTime: Infinity,
    retry: false,
  });
}
