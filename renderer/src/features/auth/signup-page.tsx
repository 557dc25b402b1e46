import { Button, Link, Stack, Text } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { Navigate, Link as RouterLink, useNavigate } from 'react-router-dom';
import { useSupabase } from '../../app/services';
import { notify } from '../../ui/toaster';
import { useDocumentTitle } from '../../ui/use-document-title';
import { EmailField, NewPasswordFields } from './auth-fields';
import { AuthCard, OrDivider } from './auth-card';
import { useAuth } from './auth-context';
import { GoogleIcon } from './google-icon';
import { MIN_PASSWORD_LENGTH } from './passwords';
import { useDesktopGoogleResult, useGoogleSignIn } from './use-google-sign-in';

type Busy = 'password' | 'google' | null;

/** /signup: email and password (typed twice) or Google; a new account then signs in at /login. */
export function SignupPage() {
  const supabase = useSupabase();
  const { user, loading } = useAuth();
  const navigate = useNavigate();
  const signInWithGoogle = useGoogleSignIn();
  useDesktopGoogleResult('Error signing up with Google');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [busy, setBusy] = useState<Busy>(null);
  useDocumentTitle('Sign Up');

  // While a sign-up runs, the session it may create must not bounce the page to /dashboard.
  if (!loading && user && busy === null) return <Navigate to="/dashboard" replace />;

  async function handleSignUp(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (password !== confirmPassword) {
      notify.error("Passwords don't match", 'Please make sure your passwords match.');
      return;
    }
    if (password.length < MIN_PASSWORD_LENGTH) {
      notify.error('Password too short', 'Password must be at least 6 characters long.');
      return;
    }
    setBusy('password');
    try {
      const { data, error } = await supabase.auth.signUp({ email, password });
      if (error) {
        notify.error('Error signing up', error.message);
        return;
      }
      // Servers that confirm emails automatically return a session; the flow wants the user to log in.
      if (data.session) await supabase.auth.signOut({ scope: 'local' });
      notify.success('Success!', 'Your account has been created. You can now log in.');
      await navigate('/login');
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
      if (started.outcome === 'failed') notify.error('Error signing up with Google', started.message);
      if (started.outcome !== 'leaving') setBusy(null);
    } catch {
      notify.unexpected();
      setBusy(null);
    }
  }

  return (
    <AuthCard
      title="Create Account"
      description="Sign up to access the monitoring dashboard"
      data-testid="signup-card"
      footer={
        <Text>
          Already have an account?{' '}
          <Link asChild colorPalette="brand" color="colorPalette.fg" fontWeight="medium">
            <RouterLink to="/login">Log in</RouterLink>
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
          loadingText="Signing up..."
          disabled={busy !== null && busy !== 'google'}
        >
          <GoogleIcon />
          Continue with Google
        </Button>
        <OrDivider label="Or continue with email" />
        <form method="post" onSubmit={(e) => void handleSignUp(e)} aria-label="Sign up">
          <Stack gap="5">
            <EmailField value={email} onChange={setEmail} />
            <NewPasswordFields label="Password" password={password} confirmPassword={confirmPassword} onPassword={setPassword} onConfirmPassword={setConfirmPassword} />
            <Button
              type="submit"
              colorPalette="brand"
              w="full"
              loading={busy === 'password'}
              loadingText="Creating account..."
              disabled={busy !== null && busy !== 'password'}
            >
              Sign Up
            </Button>
          </Stack>
        </form>
      </Stack>
    </AuthCard>
  );
}
