import { projectSchema, type UpdateProjectBody } from '@common/projects';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../../app/services';
import { queryKeys } from '../../../api/query-keys';
import { notify } from '../../../ui/toaster';
import { texts } from '../texts';

/** PATCH /project/{id} from Project Settings; toasts 'Changes saved' or 'Failed to save changes'. */
export function useUpdateProject(id: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: UpdateProjectBody) =>
      projectSchema.parse(await api.request('PATCH', `/project/${encodeURIComponent(id)}`, { body, fallbackError: 'Failed to update project' })),
    onSuccess: (project) => {
      queryClient.setQueryData(queryKeys.projects.detail(id), project);
      notify.success('Changes saved');
    },
    meta: { errorToast: texts.saveFailed },
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.projects.detail(id), exact: true }),
        queryClient.invalidateQueries({ queryKey: queryKeys.projects.list() }),
      ]),
  });
}
