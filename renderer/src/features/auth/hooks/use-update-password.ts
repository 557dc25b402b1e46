import { isAuthApiError, isAuthSessionMissingError, type AuthError } from '@supabase/auth-js';
import { useMutation } from '@tanstack/react-query';
import { useSupabase } from '../../../app/services';
import { notify } from '../../../ui/toaster';
import { texts } from '../texts';
import { AuthFailure, authFailureToast } from './auth-failure';

/** The recovery link gave no session (never redeemed, expired, or revoked): the link is what is wrong. */
class InvalidResetLink extends Error {}

const isInvalidLinkError = (error: AuthError) => isAuthSessionMissingError(error) || (isAuthApiError(error) && (error.status === 401 || error.status === 403));

const updateFailedToast = authFailureToast(texts.passwordUpdateFailed);

/**
 * Sets the new password with the recovery link's session, then drops that session (the user signs in with the new
 * password); toasts 'Your password has been updated successfully.', 'Invalid reset link' or 'Error updating password'.
 */
export function useUpdatePassword() {
  const supabase = useSupabase();
  return useMutation({
    mutationFn: async (password: string) => {
      // The recovery link signs the user in; without that session there is nothing to update.
      const { data } = await supabase.auth.getSession();
      if (!data.session) throw new InvalidResetLink();
      const { error } = await supabase.auth.updateUser({ password });
      if (error) throw isInvalidLinkError(error) ? new InvalidResetLink() : new AuthFailure(error.message);
    },
    onSuccess: async () => {
      notify.success(texts.passwordUpdated);
      await supabase.auth.signOut({ scope: 'local' });
    },
    meta: { errorToast: (error) => (error instanceof InvalidResetLink ? texts.invalidResetLink : updateFailedToast(error)) },
  });
}
