import { createBodyFromForm, createProjectFormSchema, projectSchema, type CreateProjectForm } from '@common/projects';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../../app/services';
import { ApiError } from '../../../api/http';
import { queryKeys } from '../../../api/query-keys';
import { notify } from '../../../ui/toaster';
import { texts } from '../texts';

/** POST /project from the 'Create New Project' dialog; toasts 'Project created' or 'Error creating project'. */
export function useCreateProject() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (form: CreateProjectForm) => {
      const body = createBodyFromForm(createProjectFormSchema.parse(form));
      return projectSchema.parse(await api.request('POST', '/project', { body, fallbackError: 'Failed to create project' }));
    },
    onSuccess: (project) => {
      queryClient.setQueryData(queryKeys.projects.detail(project.id), project);
      notify.success('Project created');
    },
    meta: { errorToast: (error) => [texts.createFailed, error instanceof ApiError ? error.message : texts.createFailedFallback] },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.projects.list() }),
  });
}
