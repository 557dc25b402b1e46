import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { useSupabase } from '../../../app/services';
import { notify } from '../../../ui/toaster';
import { useRestoreLastWorkspace } from '../../workspaces';
import { texts } from '../texts';
import { AuthFailure, authFailureToast } from './auth-failure';

/**
 * Signs in with email and password; toasts 'Success!' and goes to /dashboard, in the workspace the user chose last
 * (on this device or another), or toasts 'Error signing in'.
 */
export function useSignIn() {
  const supabase = useSupabase();
  const navigate = useNavigate();
  const restoreLastWorkspace = useRestoreLastWorkspace();
  return useMutation({
    mutationFn: async (credentials: { email: string; password: string }) => {
      const { data, error } = await supabase.auth.signInWithPassword(credentials);
      if (error) throw new AuthFailure(error.message);
      return data.user.id;
    },
    // Still pending until the page has moved on, so the signed-in session does not bounce it first.
    onSuccess: async (userId) => {
      await restoreLastWorkspace(userId);
      notify.success(...texts.signedIn);
      await navigate('/dashboard');
    },
    meta: { errorToast: authFailureToast(texts.signInFailed) },
  });
}
