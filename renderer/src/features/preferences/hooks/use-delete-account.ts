import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { useApi, useSupabase } from '../../../app/services';
import { ApiError } from '../../../api/http';
import { notify } from '../../../ui/toaster';
import { texts } from '../texts';

/** DELETE /account {email}: then this device signs out, every cached answer goes, and the app returns to /. */
export function useDeleteAccount() {
  const api = useApi();
  const supabase = useSupabase();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: (email: string) => api.request<unknown>('DELETE', '/account', { body: { email }, fallbackError: texts.deleteFailed }),
    onSuccess: async () => {
      // The session no longer exists on the server: only the local copy is left to drop.
      await supabase.auth.signOut({ scope: 'local' }).catch(() => undefined);
      queryClient.clear();
      notify.success(texts.deleted);
      await navigate('/', { replace: true });
    },
    meta: { errorToast: (error) => [texts.deleteFailed, error instanceof ApiError && error.message !== texts.deleteFailed ? error.message : undefined] },
  });
}
