import { workspaceMemberSchema } from '@common/workspaces';
import { useInfiniteQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { useApi } from '../../../app/services';
import { fetchPage, joinPages, pageParams } from '../../../api/pages';
import { queryKeys } from '../../../api/query-keys';
import { texts } from '../texts';
import { workspacePath } from '../paths';

const listSchema = z.array(workspaceMemberSchema);

/** GET /workspace/{id}/members, a page at a time (owner first, then by joining time). */
export function useMembers(id: string | null) {
  const api = useApi();
  const query = useInfiniteQuery({
    queryKey: queryKeys.workspaces.members(id ?? ''),
    queryFn: ({ pageParam, signal }) => fetchPage(api, workspacePath('members', { id: id ?? '' }), pageParam, listSchema, { fallbackError: texts.loadMembersFailed, signal }),
    ...pageParams,
    enabled: id !== null,
  });
  return { ...query, members: joinPages(query.data) };
}
