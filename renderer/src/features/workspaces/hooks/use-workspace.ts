import { workspaceSchema } from '@common/workspaces';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../../app/services';
import { queryKeys } from '../../../api/query-keys';
import { texts } from '../texts';
import { workspacePath } from '../paths';

/** GET /workspace/{id}: the workspace's name, the caller's role, its plan and seats. */
export function useWorkspace(id: string | null) {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.workspaces.detail(id ?? ''),
    queryFn: async ({ signal }) => workspaceSchema.parse(await api.request('GET', workspacePath('one', { id: id ?? '' }), { fallbackError: texts.loadFailed, signal })),
    enabled: id !== null,
  });
}
