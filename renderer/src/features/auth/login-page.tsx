import { Box, Button, Heading, HStack, Icon, Stack, Text } from '@chakra-ui/react';
import { MailCheck } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Navigate } from 'react-router-dom';
import { useDocumentTitle } from '../../ui/use-document-title';
import { EmailField, PasswordField } from './auth-fields';
import { AuthCard, AuthSwitch, GoogleStart } from './auth-card';
import { useAuth } from '../../app/auth-context';
import { usePrepareWhenIdle } from '../../app/route-warmup';
import { useContinueWithGoogle } from './hooks/use-continue-with-google';
import { useRedirectErrorToast } from './hooks/use-redirect-error-toast';
import { useSendResetLink } from './hooks/use-send-reset-link';
import { useSignIn } from './hooks/use-sign-in';
import { texts } from './texts';

/** /login: email and password or Google, and the forgot-password mode that mails a reset link. */
export function LoginPage() {
  const { user, loading } = useAuth();
  const signIn = useSignIn();
  const sendResetLink = useSendResetLink();
  const google = useContinueWithGoogle(texts.googleSignInFailed);
  useRedirectErrorToast();
  // Where a sign-in goes: its modules load while the visitor types.
  usePrepareWhenIdle('/dashboard/projects');
  const [mode, setMode] = useState<'signin' | 'forgot'>('signin');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const busy = signIn.isPending ? 'password' : google.busy ? 'google' : sendResetLink.isPending ? 'reset' : null;
  useDocumentTitle(mode === 'forgot' ? texts.forgot.documentTitle : texts.login.documentTitle);

  // While a sign-in runs, its hook decides where to go (after its toast).
  if (!loading && user && busy === null) return <Navigate to="/dashboard" replace />;

  function handleSignIn(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    signIn.mutate({ email, password });
  }

  function handleSendReset(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    sendResetLink.mutate(email);
  }

  // The 'Forgot password?' button that had focus is gone once the mode switches: continue in the field.
  const emailField = <EmailField value={email} onChange={setEmail} autoFocus={mode === 'forgot'} />;

  if (mode === 'forgot') {
    return (
      <AuthCard
        title={texts.forgot.title}
        description={texts.forgot.description}
        data-testid="forgot-password-card"
        footer={
          <Button
            variant="plain"
            size="sm"
            colorPalette="brand"
            color="colorPalette.fg"
            onClick={() => {
              setMode('signin');
              sendResetLink.reset();
            }}
          >
            {texts.forgot.backToSignIn}
          </Button>
        }
      >
        {sendResetLink.isSuccess ? (
          <Stack role="status" data-testid="reset-link-sent" align="center" textAlign="center" gap="2" p="5" borderRadius="l2" bg="severity.secure.subtle">
            <Icon boxSize="8" color="severity.secure.fg" aria-hidden="true">
              <MailCheck />
            </Icon>
            <Heading as="h2" size="md">
              {texts.forgot.sentTitle}
            </Heading>
            <Text color="fg.muted">{texts.forgot.sentBody}</Text>
          </Stack>
        ) : (
          <form method="post" onSubmit={handleSendReset} aria-label={texts.forgot.formLabel}>
            <Stack gap="5">
              {emailField}
              <Button type="submit" colorPalette="brand" w="full" loading={busy === 'reset'} loadingText={texts.forgot.submitting}>
                {texts.forgot.submit}
              </Button>
            </Stack>
          </form>
        )}
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title={texts.login.title}
      description={texts.login.description}
      data-testid="login-card"
      footer={<AuthSwitch question={texts.login.noAccount} linkLabel={texts.login.signUpLink} to="/signup" />}
    >
      <Stack gap="5">
        <GoogleStart onClick={google.start} busy={busy === 'google'} blocked={busy !== null && busy !== 'google'} />
        <form method="post" onSubmit={handleSignIn} aria-label={texts.login.formLabel}>
          <Stack gap="5">
            {emailField}
            <PasswordField label={texts.passwordLabel} name="password" autoComplete="current-password" value={password} onChange={setPassword} />
            {/* After the password field, so Tab goes from email straight to password. */}
            <HStack justify="flex-end" mt="-3">
              <Button type="button" variant="plain" size="sm" h="auto" px="0" colorPalette="brand" color="colorPalette.fg" onClick={() => setMode('forgot')}>
                {texts.login.forgotPassword}
              </Button>
            </HStack>
            <Box>
              <Button
                type="submit"
                colorPalette="brand"
                w="full"
                loading={busy === 'password'}
                loadingText={texts.login.submitting}
                disabled={busy !== null && busy !== 'password'}
              >
                {texts.login.submit}
              </Button>
            </Box>
          </Stack>
        </form>
      </Stack>
    </AuthCard>
  );
}
