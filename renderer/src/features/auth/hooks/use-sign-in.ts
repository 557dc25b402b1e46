import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { restoreLastWorkspace } from '../../../api/last-workspace';
import { useRouteWarmup } from '../../../app/route-warmup';
import { useServices, useSupabase } from '../../../app/services';
import { notify } from '../../../ui/toaster';
import { texts } from '../texts';
import { AuthFailure, authFailureToast } from './auth-failure';

/**
 * Signs in with email and password; toasts 'Success!' and goes to /dashboard, in the workspace the user chose last
 * (on this device or another), or toasts 'Error signing in'.
 */
export function useSignIn() {
  const supabase = useSupabase();
  const navigate = useNavigate();
  const { api, workspace } = useServices();
  const { prepare } = useRouteWarmup();
  return useMutation({
    mutationFn: async (credentials: { email: string; password: string }) => {
      const { data, error } = await supabase.auth.signInWithPassword(credentials);
      if (error) throw new AuthFailure(error.message);
      return data.user.id;
    },
    // Still pending until the page has moved on, so the signed-in session does not bounce it first.
    onSuccess: async (userId) => {
      await restoreLastWorkspace(api, workspace, userId);
      // The project list is asked for now, in that workspace, while the dashboard's modules run (/dashboard opens on it).
      prepare('/dashboard/projects', { data: true });
      notify.success(...texts.signedIn);
      await navigate('/dashboard');
    },
    meta: { errorToast: authFailureToast(texts.signInFailed) },
  });
}
