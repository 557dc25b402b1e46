import { Button, Heading, Icon, Stack, Text } from '@chakra-ui/react';
import { TriangleAlert } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useHydrated } from '../../app/hydration';
import { useServices } from '../../app/services';
import { notify } from '../../ui/toaster';
import { useDocumentTitle } from '../../ui/use-document-title';
import { NewPasswordFields } from './auth-fields';
import { AuthCard } from './auth-card';
import { useInvalidLinkToast } from './hooks/use-invalid-link-toast';
import { useUpdatePassword } from './hooks/use-update-password';
import { MIN_PASSWORD_LENGTH } from './passwords';
import { resetLinkOf } from './redirect-error';
import { texts } from './texts';

/** The spec's 'back to login' delay after a successful reset. */
const REDIRECT_DELAY_MS = 2000;

/** /reset-password: opened from the recovery mail's link, whose fragment carries type=recovery. */
export function ResetPasswordPage() {
  const { entry } = useServices();
  const location = useLocation();
  const navigate = useNavigate();
  const updatePassword = useUpdatePassword();
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const redirectTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useDocumentTitle(texts.reset.documentTitle);

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

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (password !== confirmPassword) {
      notify.error(...texts.resetPasswordsDiffer);
      return;
    }
    if (password.length < MIN_PASSWORD_LENGTH) {
      notify.error(...texts.resetPasswordTooShort);
      return;
    }
    updatePassword.mutate(password, {
      onSuccess: () => {
        redirectTimer.current = setTimeout(() => void navigate('/login'), REDIRECT_DELAY_MS);
      },
    });
  }

  if (!validLink) {
    return (
      <AuthCard title={texts.reset.title} description={texts.reset.invalidDescription} data-testid="reset-password-card">
        <Stack gap="5" align="center" textAlign="center" data-testid="invalid-reset-link">
          <Icon boxSize="10" color="severity.critical.fg" aria-hidden="true">
            <TriangleAlert />
          </Icon>
          <Stack gap="1.5">
            <Heading as="h2" size="md">
              {texts.reset.invalidTitle}
            </Heading>
            <Text color="fg.muted">{texts.reset.invalidBody}</Text>
          </Stack>
          <Button colorPalette="brand" w="full" onClick={() => void navigate('/login')}>
            {texts.reset.backToLogin}
          </Button>
        </Stack>
      </AuthCard>
    );
  }

  return (
    <AuthCard title={texts.reset.title} description={texts.reset.description} data-testid="reset-password-card">
      <form method="post" onSubmit={handleSubmit} aria-label={texts.reset.formLabel}>
        <Stack gap="5">
          <NewPasswordFields
            label={texts.reset.passwordLabel}
            password={password}
            confirmPassword={confirmPassword}
            onPassword={setPassword}
            onConfirmPassword={setConfirmPassword}
          />
          <Button type="submit" colorPalette="brand" w="full" loading={updatePassword.isPending} loadingText={texts.reset.submitting} disabled={updatePassword.isSuccess}>
            {texts.reset.submit}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
