import { Alert, Button, Dialog, Portal, Stack, Text } from '@chakra-ui/react';
import type { CreatedApiKey } from '@common/api-keys';
import { CodeBlock } from '../../../ui/code-block';
import { texts } from '../texts';
import { keepOpenForToasts } from '../../../ui/dialog-outside';

/**
 * The new key, shown this once: the server keeps only its hash. Only "I've saved my key" closes it (no close
 * button, no outside click), so the key is not lost to a stray click.
 */
export function NewKeyDialog({ created, onDone }: { created: CreatedApiKey | null; onDone: () => void }) {
  return (
    <Dialog.Root onInteractOutside={keepOpenForToasts}
      open={created !== null}
      onOpenChange={(details) => !details.open && onDone()}
      closeOnInteractOutside={false}
      role="alertdialog"
      size={{ base: 'xs', sm: 'md' }}
      placement="center"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid="new-key-dialog">
            <Dialog.Header>
              <Dialog.Title>{texts.newKeyTitle}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
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
            </Dialog.Body>
            <Dialog.Footer>
              <Button colorPalette="brand" onClick={onDone}>
                {texts.savedKey}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
