import { invitationSchema } from '@common/workspaces';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../../app/services';
import { queryKeys } from '../../../api/query-keys';
import { notify } from '../../../ui/toaster';
import { texts } from '../texts';
import { workspacePath } from '../paths';

/**
 * POST /workspace/{id}/invitations {email} (owner): mails a signed, single-use link. Toasts 'Invitation sent'; a
 * refusal (the plan's seats, an address already in or invited) stays on the mutation for the form to show.
 */
export function useInvite(id: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (email: string) =>
      invitationSchema.parse(await api.request('POST', workspacePath('invitations', { id }), { body: { email }, fallbackError: texts.inviteFailed })),
    onSuccess: () => notify.success(texts.invitationSent),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.workspaces.invitations(id) });
      // Seats in use count open invitations.
      void queryClient.invalidateQueries({ queryKey: queryKeys.workspaces.detail(id), exact: true });
    },
  });
}
