import { Button, Card, Dialog, Field, Input, Stack, Text } from '@chakra-ui/react';
import { Download, Trash2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useAuth } from '../../../app/auth-context';
import { useDeleteAccount } from '../hooks/use-delete-account';
import { useDownloadData } from '../hooks/use-download-data';
import { texts } from '../texts';
import { AppDialog } from '../../../ui/app-dialog';

/** Download My Data and Delete My Account (confirmed by typing the account's email). */
export function AccountData() {
  const download = useDownloadData();
  const [deleting, setDeleting] = useState(false);
  return (
    <>
      <Card.Root as="section" aria-labelledby="data-title" variant="outline">
        <Card.Header>
          <Card.Title as="h2" id="data-title">
            {texts.dataTitle}
          </Card.Title>
        </Card.Header>
        <Card.Body>
          <Stack gap="3" align="start">
            <Text color="fg.muted" fontSize="sm">
              {texts.dataHelp}
            </Text>
            <Button variant="outline" onClick={() => download.mutate()} loading={download.isPending} loadingText={texts.downloading}>
              <Download aria-hidden /> {texts.download}
            </Button>
          </Stack>
        </Card.Body>
      </Card.Root>
      <Card.Root as="section" aria-labelledby="delete-title" variant="outline" borderColor="border.error">
        <Card.Header>
          <Card.Title as="h2" id="delete-title">
            {texts.deleteTitle}
          </Card.Title>
        </Card.Header>
        <Card.Body>
          <Stack gap="3" align="start">
            <Text color="fg.muted" fontSize="sm">
              {texts.deleteHelp}
            </Text>
            <Button colorPalette="red" onClick={() => setDeleting(true)}>
              <Trash2 aria-hidden /> {texts.deleteButton}
            </Button>
          </Stack>
        </Card.Body>
      </Card.Root>
      <DeleteAccountDialog open={deleting} onOpenChange={setDeleting} />
    </>
  );
}

function DeleteAccountDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { user } = useAuth();
  const email = user?.email ?? '';
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  const remove = useDeleteAccount();

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // The server checks it too; here the user learns at once, before anything is sent.
    if (typed.trim().toLowerCase() !== email.toLowerCase()) return setError(texts.dialogMismatch);
    setError(null);
    remove.mutate(typed.trim());
  }

  const change = (next: boolean) => {
    if (remove.isPending) return;
    if (!next) {
      setTyped('');
      setError(null);
    }
    onOpenChange(next);
  };

  return (
    <AppDialog
      open={open}
      onOpenChange={change}
      role="alertdialog"
      form={{ onSubmit: handleSubmit }}
      title={texts.dialogTitle}
      footer={
        <>
          <Dialog.ActionTrigger asChild>
            <Button variant="outline" disabled={remove.isPending}>
              {texts.cancel}
            </Button>
          </Dialog.ActionTrigger>
          <Button type="submit" colorPalette="red" loading={remove.isPending} loadingText={texts.deleting}>
            {texts.confirmDelete}
          </Button>
        </>
      }
    >
      <Stack gap="4">
        <Dialog.Description>{texts.dialogQuestion}</Dialog.Description>
        <Field.Root invalid={error !== null}>
          <Field.Label>{texts.dialogPrompt(email)}</Field.Label>
          <Input type="email" autoComplete="off" value={typed} onChange={(e) => setTyped(e.target.value)} aria-label={texts.dialogLabel} placeholder={email} />
          {/* Darker than the default error red, which is under 4.5:1 on white at this size. */}
          {error && <Field.ErrorText color="red.fg">{error}</Field.ErrorText>}
        </Field.Root>
      </Stack>
    </AppDialog>
  );
}
