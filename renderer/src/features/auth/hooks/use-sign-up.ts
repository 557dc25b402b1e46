import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { useSupabase } from '../../../app/services';
import { notify } from '../../../ui/toaster';
import { texts } from '../texts';
import { AuthFailure, authFailureToast } from './auth-failure';

/** Creates an account; toasts 'Success!' and goes to /login (the flow signs in there), or toasts 'Error signing up'. */
export function useSignUp() {
  const supabase = useSupabase();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: async (credentials: { email: string; password: string }) => {
      const { data, error } = await supabase.auth.signUp(credentials);
      if (error) throw new AuthFailure(error.message);
      // Servers that confirm emails automatically return a session; the flow wants the user to log in.
      if (data.session) await supabase.auth.signOut({ scope: 'local' });
    },
    onSuccess: async () => {
      notify.success(...texts.signedUp);
      await navigate('/login');
    },
    meta: { errorToast: authFailureToast(texts.signUpFailed) },
  });
}
