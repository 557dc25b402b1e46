import { useMutation } from '@tanstack/react-query';
import { useServices, useSupabase } from '../../../app/services';
import { notify } from '../../../ui/toaster';
import { recoveryRedirect } from '../recovery-redirect';
import { texts } from '../texts';
import { AuthFailure, authFailureToast } from './auth-failure';

/** Mails a password reset link that opens /reset-password; toasts 'Password reset email sent' or 'Error sending reset link'. */
export function useSendResetLink() {
  const supabase = useSupabase();
  const { publicOrigin, bridge } = useServices();
  return useMutation({
    mutationFn: async (email: string) => {
      const { error } = await supabase.auth.resetPasswordForEmail(email, { redirectTo: recoveryRedirect(bridge.kind, publicOrigin) });
      if (error) throw new AuthFailure(error.message);
    },
    onSuccess: () => notify.success(texts.resetLinkSent),
    meta: { errorToast: authFailureToast(texts.resetLinkFailed) },
  });
}
