import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { useRouteWarmup } from '../../../app/route-warmup';
import { useSupabase } from '../../../app/services';
import { notify } from '../../../ui/toaster';
import { texts } from '../texts';
import { AuthFailure, authFailureToast } from './auth-failure';

/** Signs in with email and password; toasts 'Success!' and goes to /dashboard, or toasts 'Error signing in'. */
export function useSignIn() {
  const supabase = useSupabase();
  const navigate = useNavigate();
  const { prepare } = useRouteWarmup();
  return useMutation({
    mutationFn: async (credentials: { email: string; password: string }) => {
      const { error } = await supabase.auth.signInWithPassword(credentials);
      if (error) throw new AuthFailure(error.message);
    },
    // Still pending until the page has moved on, so the signed-in session does not bounce it first.
    onSuccess: async () => {
      // The project list is asked for now, while the dashboard's modules run (/dashboard opens on it).
      prepare('/dashboard/projects', { data: true });
      notify.success(...texts.signedIn);
      await navigate('/dashboard');
    },
    meta: { errorToast: authFailureToast(texts.signInFailed) },
  });
}
