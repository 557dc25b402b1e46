import { Alert, Button, Stack, Text } from '@chakra-ui/react';
import type { CreatedApiKey } from '@common/api-keys';
import { CodeBlock } from '../../../ui/code-block';
import { texts } from '../texts';
import { AppDialog } from '../../../ui/app-dialog';

/**
 * The new key, shown this once: the server keeps only its hash. Only "I've saved my key" closes it (no close
 * button, no outside click), so the key is not lost to a stray click.
 */
export function NewKeyDialog({ created, onDone }: { created: CreatedApiKey | null; onDone: () => void }) {
  return (
    <AppDialog
      open={created !== null}
      onOpenChange={(next) => !next && onDone()}
      closeOnInteractOutside={false}
      closable={false}
      role="alertdialog"
      testId="new-key-dialog"
      title={texts.newKeyTitle}
      footer={
        <Button colorPalette="brand" onClick={onDone}>
          {texts.savedKey}
        </Button>
      }
    >
      <Stack gap="3">
        <Text fontSize="sm" color="fg.muted" wordBreak="break-word">
          {created?.name}
        </Text>
        <CodeBlock code={created?.key ?? ''} copyLabel="Copy API key" testId="new-api-key" />
        <Alert.Root status="warning">
          <Alert.Indicator />
          <Alert.Description>{texts.copyWarning}</Alert.Description>
        </Alert.Root>
      </Stack>
    </AppDialog>
  );
}
