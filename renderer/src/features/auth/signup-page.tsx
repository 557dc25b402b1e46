import { Button, Stack } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { Navigate } from 'react-router-dom';
import { notify } from '../../ui/toaster';
import { useDocumentTitle } from '../../ui/use-document-title';
import { EmailField, NewPasswordFields } from './auth-fields';
import { AuthCard, AuthSwitch, GoogleStart } from './auth-card';
import { useAuth } from '../../app/auth-context';
import { useContinueWithGoogle } from './hooks/use-continue-with-google';
import { useSignUp } from './hooks/use-sign-up';
import { MIN_PASSWORD_LENGTH } from './passwords';
import { texts } from './texts';

/** /signup: email and password (typed twice) or Google; a new account then signs in at /login. */
export function SignupPage() {
  const { user, loading } = useAuth();
  const signUp = useSignUp();
  const google = useContinueWithGoogle(texts.googleSignUpFailed);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const busy = signUp.isPending ? 'password' : google.busy ? 'google' : null;
  useDocumentTitle(texts.signup.documentTitle);

  // While a sign-up runs, the session it may create must not bounce the page to /dashboard.
  if (!loading && user && busy === null) return <Navigate to="/dashboard" replace />;

  function handleSignUp(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (password !== confirmPassword) {
      notify.error(...texts.signupPasswordsDiffer);
      return;
    }
    if (password.length < MIN_PASSWORD_LENGTH) {
      notify.error(...texts.signupPasswordTooShort);
      return;
    }
    signUp.mutate({ email, password });
  }

  return (
    <AuthCard
      title={texts.signup.title}
      description={texts.signup.description}
      data-testid="signup-card"
      footer={<AuthSwitch question={texts.signup.haveAccount} linkLabel={texts.signup.logInLink} to="/login" />}
    >
      <Stack gap="5">
        <GoogleStart onClick={google.start} busy={busy === 'google'} blocked={busy !== null && busy !== 'google'} loadingText={texts.signup.googleSubmitting} />
        <form method="post" onSubmit={handleSignUp} aria-label={texts.signup.formLabel}>
          <Stack gap="5">
            <EmailField value={email} onChange={setEmail} />
            <NewPasswordFields label={texts.passwordLabel} password={password} confirmPassword={confirmPassword} onPassword={setPassword} onConfirmPassword={setConfirmPassword} />
            <Button type="submit" colorPalette="brand" w="full" loading={busy === 'password'} loadingText={texts.signup.submitting} disabled={busy !== null && busy !== 'password'}>
              {texts.signup.submit}
            </Button>
          </Stack>
        </form>
      </Stack>
    </AuthCard>
  );
}
