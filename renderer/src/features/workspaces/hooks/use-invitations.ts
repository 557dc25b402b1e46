import { invitationSchema } from '@common/workspaces';
import { useInfiniteQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { useApi } from '../../../app/services';
import { fetchPage, joinPages, pageParams } from '../../../api/pages';
import { queryKeys } from '../../../api/query-keys';
import { texts } from '../texts';
import { workspacePath } from '../paths';

const listSchema = z.array(invitationSchema);

/** GET /workspace/{id}/invitations (owner only), a page at a time: the open invitations. */
export function useInvitations(id: string | null, { enabled }: { enabled: boolean }) {
  const api = useApi();
  const query = useInfiniteQuery({
    queryKey: queryKeys.workspaces.invitations(id ?? ''),
    queryFn: ({ pageParam, signal }) =>
      fetchPage(api, workspacePath('invitations', { id: id ?? '' }), pageParam, listSchema, { fallbackError: texts.loadInvitationsFailed, signal }),
    ...pageParams,
    enabled: enabled && id !== null,
  });
  return { ...query, invitations: joinPages(query.data) };
}
