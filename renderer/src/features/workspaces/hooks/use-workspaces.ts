import { workspaceSchema } from '@common/workspaces';
import { useInfiniteQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { useApi } from '../../../app/services';
import { fetchPage, joinPages, pageParams } from '../../../api/pages';
import { queryKeys } from '../../../api/query-keys';
import { texts } from '../texts';
import { workspacePath } from '../paths';

const listSchema = z.array(workspaceSchema);

/** GET /workspaces, a page at a time: the caller's workspaces, for the switcher. */
export function useWorkspaces({ enabled = true }: { enabled?: boolean } = {}) {
  const api = useApi();
  const query = useInfiniteQuery({
    queryKey: queryKeys.workspaces.list(),
    queryFn: ({ pageParam, signal }) => fetchPage(api, workspacePath('list'), pageParam, listSchema, { fallbackError: texts.loadWorkspacesFailed, signal }),
    ...pageParams,
    enabled,
  });
  return { ...query, workspaces: joinPages(query.data) };
}
