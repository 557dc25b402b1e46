import { Box, Button, Heading, HStack, Icon, Link, Stack, Text } from '@chakra-ui/react';
import { MailCheck } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';
import { Navigate, Link as RouterLink, useLocation, useNavigate } from 'react-router-dom';
import { useServices, useSupabase } from '../../app/services';
import { recoveryRedirect } from './recovery-redirect';
import { notify } from '../../ui/toaster';
import { useDocumentTitle } from '../../ui/use-document-title';
import { EmailField, PasswordField } from './auth-fields';
import { AuthCard, OrDivider } from './auth-card';
import { useAuth } from './auth-context';
import { GoogleIcon } from './google-icon';
import { takeRedirectError } from './redirect-error';
import { useDesktopGoogleResult, useGoogleSignIn } from './use-google-sign-in';

type Busy = 'password' | 'google' | 'reset' | null;

/** /login: email and password or Google, and the forgot-password mode that mails a reset link. */
export function LoginPage() {
  const supabase = useSupabase();
  const { publicOrigin, entry, bridge } = useServices();
  const { user, loading } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const signInWithGoogle = useGoogleSignIn();
  useDesktopGoogleResult('Error signing in with Google');
  const [mode, setMode] = useState<'signin' | 'forgot'>('signin');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState<Busy>(null);
  const [resetSent, setResetSent] = useState(false);
  useDocumentTitle(mode === 'forgot' ? 'Reset Password' : 'Login');

  // OAuth and provider errors come back as #error=...&error_description=... (supabase-js leaves them in place).
  useEffect(() => {
    const hash = location.hash || (entry.pathname === '/login' ? entry.hash : '');
    const description = takeRedirectError(hash);
    if (!description) return;
    // The only redirect that lands here with an error is the Google (OAuth) one.
    notify.error('Error signing in with Google', description);
    if (location.hash) void navigate({ pathname: location.pathname, search: location.search }, { replace: true });
  }, [entry, location.hash, location.pathname, location.search, navigate]);

  // While a sign-in runs, the handler decides where to go (after its toast).
  if (!loading && user && busy === null) return <Navigate to="/dashboard" replace />;

  async function handleSignIn(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy('password');
    try {
      const { error } = await supabase.auth.signInWithPassword({ email, password });
      if (error) {
        notify.error('Error signing in', error.message);
        return;
      }
      notify.success('Success!', 'You have successfully signed in.');
      await navigate('/dashboard');
    } catch {
      notify.unexpected();
    } finally {
      setBusy(null);
    }
  }

  async function handleGoogle() {
    setBusy('google');
    try {
      const started = await signInWithGoogle();
      if (started.outcome === 'failed') notify.error('Error signing in with Google', started.message);
      // When the page is leaving for the provider it stays busy; the desktop app's flow runs in the browser.
      if (started.outcome !== 'leaving') setBusy(null);
    } catch {
      notify.unexpected();
      setBusy(null);
    }
  }

  async function handleSendReset(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy('reset');
    try {
      const { error } = await supabase.auth.resetPasswordForEmail(email, { redirectTo: recoveryRedirect(bridge.kind, publicOrigin) });
      if (error) {
        notify.error('Error sending reset link', error.message);
        return;
      }
      notify.success('Password reset email sent');
      setResetSent(true);
    } catch {
      notify.unexpected();
    } finally {
      setBusy(null);
    }
  }

  // The 'Forgot password?' button that had focus is gone once the mode switches: continue in the field.
  const emailField = <EmailField value={email} onChange={setEmail} autoFocus={mode === 'forgot'} />;

  if (mode === 'forgot') {
    return (
      <AuthCard
        title="Reset Password"
        description="Enter your email to receive a password reset link"
        data-testid="forgot-password-card"
        footer={
          <Button
            variant="plain"
            size="sm"
            colorPalette="brand"
            color="colorPalette.fg"
            onClick={() => {
              setMode('signin');
              setResetSent(false);
            }}
          >
            Back to sign in
          </Button>
        }
      >
        {resetSent ? (
          <Stack
            role="status"
            data-testid="reset-link-sent"
            align="center"
            textAlign="center"
            gap="2"
            p="5"
            borderRadius="l2"
            bg="severity.secure.subtle"
          >
            <Icon boxSize="8" color="severity.secure.fg" aria-hidden="true">
              <MailCheck />
            </Icon>
            <Heading as="h2" size="md">
              Reset link sent!
            </Heading>
            <Text color="fg.muted">
              Please check your email inbox and follow the instructions to reset your password.
            </Text>
          </Stack>
        ) : (
          <form method="post" onSubmit={(e) => void handleSendReset(e)} aria-label="Reset password">
            <Stack gap="5">
              {emailField}
              <Button type="submit" colorPalette="brand" w="full" loading={busy === 'reset'} loadingText="Sending...">
                Send Reset Link
              </Button>
            </Stack>
          </form>
        )}
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Welcome Back"
      description="Sign in to access your dashboard and projects"
      data-testid="login-card"
      footer={
        <Text>
          Don&apos;t have an account?{' '}
          <Link asChild colorPalette="brand" color="colorPalette.fg" fontWeight="medium">
            <RouterLink to="/signup">Sign up</RouterLink>
          </Link>
        </Text>
      }
    >
      <Stack gap="5">
        <Button
          variant="outline"
          w="full"
          onClick={() => void handleGoogle()}
          loading={busy === 'google'}
          disabled={busy !== null && busy !== 'google'}
        >
          <GoogleIcon />
          Continue with Google
        </Button>
        <OrDivider label="Or continue with email" />
        <form method="post" onSubmit={(e) => void handleSignIn(e)} aria-label="Sign in">
          <Stack gap="5">
            {emailField}
            <PasswordField label="Password" name="password" autoComplete="current-password" value={password} onChange={setPassword} />
            {/* After the password field, so Tab goes from email straight to password. */}
            <HStack justify="flex-end" mt="-3">
              <Button
                type="button"
                variant="plain"
                size="sm"
                h="auto"
                px="0"
                colorPalette="brand"
                color="colorPalette.fg"
                onClick={() => setMode('forgot')}
              >
                Forgot password?
              </Button>
            </HStack>
            <Box>
              <Button
                type="submit"
                colorPalette="brand"
                w="full"
                loading={busy === 'password'}
                loadingText="Signing in..."
                disabled={busy !== null && busy !== 'password'}
              >
                Sign In
              </Button>
            </Box>
          </Stack>
        </form>
      </Stack>
    </AuthCard>
  );
}
