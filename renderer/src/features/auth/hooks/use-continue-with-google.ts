import { useMutation } from '@tanstack/react-query';
import type { GoogleErrorTitle } from '../texts';
import { AuthFailure, authFailureToast } from './auth-failure';
import { useDesktopGoogleResult, useGoogleSignIn } from './use-google-sign-in';

/**
 * The 'Continue with Google' button of a page: starts the sign-in, and shows its errors (also those the desktop
 * app's browser flow sends back) under the page's own title. `busy` stays on while the page leaves for Google.
 */
export function useContinueWithGoogle(errorTitle: GoogleErrorTitle) {
  const signInWithGoogle = useGoogleSignIn();
  useDesktopGoogleResult(errorTitle);
  const google = useMutation({
    mutationFn: async () => {
      const started = await signInWithGoogle();
      if (started.outcome === 'failed') throw new AuthFailure(started.message);
      return started.outcome;
    },
    meta: { errorToast: authFailureToast(errorTitle) },
  });
  return { start: () => google.mutate(), busy: google.isPending || google.data === 'leaving' };
}
