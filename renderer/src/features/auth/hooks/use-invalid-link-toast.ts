import { useEffect, useState } from 'react';
import { useSupabase } from '../../../app/services';
import { notify } from '../../../ui/toaster';
import { resetLinkOf, takeInvalidResetLink } from '../redirect-error';
import { texts } from '../texts';

const toastInvalidLink = () => notify.error(...texts.invalidResetLink);

/**
 * Toasts 'Invalid reset link' once when the page was opened from a link that cannot reset the password: one the auth
 * server refused (used, expired, malformed), or a recovery link whose tokens gave no session. Answers whether the
 * recovery link turned out to have no session (a page opened by hand has no link, and no toast).
 */
export function useInvalidLinkToast(hydrated: boolean, hash: string): boolean {
  const supabase = useSupabase();
  const [sessionMissing, setSessionMissing] = useState(false);
  useEffect(() => {
    if (!hydrated) return;
    const link = resetLinkOf(hash);
    if (link === 'failed') {
      // Toasted from the next task, here and below: a toast created while the app's first render commits never
      // reaches the toaster (seen in Chromium with the page rendered afresh for its fragment).
      if (takeInvalidResetLink(hash)) setTimeout(toastInvalidLink, 0);
      return;
    }
    if (link !== 'recovery') return;
    let current = true;
    // supabase-js redeems the fragment's tokens while it starts; getSession waits for that.
    // A failed read leaves the form: submitting it checks the session again and says what went wrong.
    supabase.auth.getSession().then(
      ({ data }) => {
        if (!current || data.session) return;
        setSessionMissing(true);
        if (takeInvalidResetLink(hash)) setTimeout(toastInvalidLink, 0);
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [hydrated, hash, supabase]);
  return sessionMissing;
}
