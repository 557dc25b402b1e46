import { Button, Dialog, Field, Icon, Input, Stack, Text } from '@chakra-ui/react';
import { DEMO_LABELS, DEMO_URLS, PUBLIC_SCAN_MESSAGES, URL_MESSAGES, isValidEmail, type DemoType } from '@common/marketing';
import { MailCheck } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useServices } from '../../../app/services';
import { notify } from '../../../ui/toaster';
import { sendPublicScanRequest } from './public-scan-call';
import { AppDialog } from '../../../ui/app-dialog';

/** What the report is for: a URL the visitor typed, or one of the demo examples. */
export type ReportTarget = { kind: 'url'; url: string } | { kind: 'demo'; demo: DemoType | null };

/**
 * The 'Thank You' dialog: asks where to send the report, sends the public scan call, then confirms. The
 * confirmation shows whatever the server answers (spec section 8).
 */
export function EmailDialog({ target, onClose }: { target: ReportTarget | null; onClose: () => void }) {
  const { serverOrigin } = useServices();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);

  const close = () => {
    onClose();
    setEmail('');
    setError(null);
    setSent(false);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!target || sent) return;
    if (!isValidEmail(email)) {
      setError(URL_MESSAGES.email);
      return;
    }
    if (target.kind === 'demo' && !target.demo) {
      notify.error(PUBLIC_SCAN_MESSAGES.noDemoType);
      return;
    }
    try {
      const url = target.kind === 'url' ? target.url : DEMO_URLS[target.demo!];
      sendPublicScanRequest(serverOrigin, { url, email: email.trim() });
    } catch {
      notify.error(PUBLIC_SCAN_MESSAGES.emailFailed);
      return;
    }
    notify.success(PUBLIC_SCAN_MESSAGES.emailSubmitted);
    setSent(true);
  };

  const subject = !target ? '' : target.kind === 'url' ? target.url : target.demo ? `the ${DEMO_LABELS[target.demo].toLowerCase()} demo` : 'the demo';

  return (
    <AppDialog
      open={target !== null}
      onOpenChange={(next) => !next && close()}
      form={{ onSubmit: submit }}
      testId="email-dialog"
      title="Thank You"
      footer={
        sent ? (
          <Button type="button" colorPalette="brand" onClick={close}>
            Close
          </Button>
        ) : (
          <Button type="submit" colorPalette="brand" w={{ base: 'full', sm: 'auto' }}>
            Send my report
          </Button>
        )
      }
    >
      {sent ? (
        <Stack gap="3" align="center" textAlign="center" py="2">
          <Icon boxSize="10" color="severity.secure.fg" aria-hidden="true">
            <MailCheck />
          </Icon>
          <Dialog.Description>{PUBLIC_SCAN_MESSAGES.confirmation}</Dialog.Description>
          <Text fontSize="sm" color="fg.muted">
            It usually arrives within a few minutes. Check your spam folder if it does not.
          </Text>
        </Stack>
      ) : (
        <Stack gap="4">
          <Dialog.Description>
            Where should we send the security report for{' '}
            <Text as="span" fontWeight="semibold" color="fg" wordBreak="break-all">
              {subject}
            </Text>
            ?
          </Dialog.Description>
          <Field.Root invalid={error !== null} required>
            <Field.Label>Email</Field.Label>
            <Input
              type="email"
              name="email"
              autoComplete="email"
              placeholder="you@example.com"
              value={email}
              onChange={(e) => {
                setEmail(e.target.value);
                setError(null);
              }}
            />
            {error && <Field.ErrorText>{error}</Field.ErrorText>}
          </Field.Root>
          <Text fontSize="xs" color="fg.muted">
            We scan only what the site serves publicly, never change data, and use your address only to send this report.
          </Text>
        </Stack>
      )}
    </AppDialog>
  );
}
