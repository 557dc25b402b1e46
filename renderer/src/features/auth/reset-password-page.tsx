import { Button, Heading, Icon, Stack, Text } from '@chakra-ui/react';
import { isAuthApiError, isAuthSessionMissingError, type AuthError } from '@supabase/auth-js';
import { TriangleAlert } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useHydrated } from '../../app/hydration';
import { useServices, useSupabase } from '../../app/services';
import { notify } from '../../ui/toaster';
import { useDocumentTitle } from '../../ui/use-document-title';
import { NewPasswordFields } from './auth-fields';
import { AuthCard } from './auth-card';
import { MIN_PASSWORD_LENGTH } from './passwords';
import { resetLinkOf, takeInvalidResetLink } from './redirect-error';

/** The spec's 'back to login' delay after a successful reset. */
const REDIRECT_DELAY_MS = 2000;

/** The spec's toast for a link that cannot reset the password. */
const toastInvalidLink = () => notify.error('Invalid reset link', 'This reset link is invalid or expired. Please request a new one.');

/** No session behind the link (never redeemed, expired, or revoked): the link is what is wrong. */
const isInvalidLinkError = (error: AuthError) =>
  isAuthSessionMissingError(error) || (isAuthApiError(error) && (error.status === 401 || error.status === 403));

/**
 * Toasts 'Invalid reset link' once when the page was opened from a link that cannot reset the password: one the auth
 * server refused (used, expired, malformed), or a recovery link whose tokens gave no session. Answers whether the
 * recovery link turned out to have no session (a page opened by hand has no link, and no toast).
 */
function useInvalidLinkToast(hydrated: boolean, hash: string): boolean {
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

/** /reset-password: opened from the recovery mail's link, whose fragment carries type=recovery. */
export function ResetPasswordPage() {
  const supabase = useSupabase();
  const { entry } = useServices();
  const location = useLocation();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const redirectTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useDocumentTitle('Reset Your Password');

  useEffect(() => () => clearTimeout(redirectTimer.current), []);

  // supabase-js strips the fragment once it has read the session from it, hence the one captured at boot;
  // a fragment still in the address (e.g. an expired link's #error=...) is the newer word.
  // The prerendered page shows the form: it is what a recovery link opens, and that link's fragment is read
  // only in the browser (a visit without one turns to the invalid-link message once the app runs).
  const hydrated = useHydrated();
  const hash = location.hash || entry.hash;
  const link = resetLinkOf(hash);
  const sessionMissing = useInvalidLinkToast(hydrated, hash);
  const validLink = !hydrated || (link === 'recovery' && !sessionMissing);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (password !== confirmPassword) {
      notify.error('Passwords do not match', 'Please make sure your passwords match');
      return;
    }
    if (password.length < MIN_PASSWORD_LENGTH) {
      notify.error('Password too short', 'Password must be at least 6 characters');
      return;
    }
    setBusy(true);
    try {
      // The recovery link signs the user in; without that session there is nothing to update.
      const { data } = await supabase.auth.getSession();
      if (!data.session) {
        toastInvalidLink();
        return;
      }
      const { error } = await supabase.auth.updateUser({ password });
      if (error) {
        if (isInvalidLinkError(error)) {
          toastInvalidLink();
        } else {
          notify.error('Error updating password', error.message);
        }
        return;
      }
      notify.success('Your password has been updated successfully.');
      setDone(true);
      // The recovery session has done its job; the user signs in with the new password.
      await supabase.auth.signOut({ scope: 'local' });
      redirectTimer.current = setTimeout(() => void navigate('/login'), REDIRECT_DELAY_MS);
    } catch {
      notify.unexpected();
    } finally {
      setBusy(false);
    }
  }

  if (!validLink) {
    return (
      <AuthCard title="Reset Your Password" description="Invalid or expired reset link" data-testid="reset-password-card">
        <Stack gap="5" align="center" textAlign="center" data-testid="invalid-reset-link">
          <Icon boxSize="10" color="severity.critical.fg" aria-hidden="true">
            <TriangleAlert />
          </Icon>
          <Stack gap="1.5">
            <Heading as="h2" size="md">
              Invalid or Expired Link
            </Heading>
            <Text color="fg.muted">Please return to the login page and request a new password reset link.</Text>
          </Stack>
          <Button colorPalette="brand" w="full" onClick={() => void navigate('/login')}>
            Back to Login
          </Button>
        </Stack>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Reset Your Password"
      description="Create a new secure password for your account"
      data-testid="reset-password-card"
    >
      <form method="post" onSubmit={(e) => void handleSubmit(e)} aria-label="Reset password">
        <Stack gap="5">
          <NewPasswordFields label="New Password" password={password} confirmPassword={confirmPassword} onPassword={setPassword} onConfirmPassword={setConfirmPassword} />
          <Button
            type="submit"
            colorPalette="brand"
            w="full"
            loading={busy}
            loadingText="Updating..."
            disabled={done}
          >
            Reset Password
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
