import { Button, CloseButton, Dialog, Portal } from '@chakra-ui/react';
import { texts } from '../texts';

/** The delete confirmation of a test scenario. */
export function DeleteScenarioDialog({
  name,
  open,
  onOpenChange,
  onConfirm,
  deleting,
}: {
  name: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onConfirm: () => void;
  deleting: boolean;
}) {
  return (
    <Dialog.Root open={open} onOpenChange={(d) => onOpenChange(d.open)} role="alertdialog" size={{ base: 'xs', sm: 'sm' }} placement="center">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>Delete test scenario</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Dialog.Description>{texts.deleteConfirm}</Dialog.Description>
              <Dialog.Description mt="2" color="fg.muted" fontSize="sm" wordBreak="break-word">
                {name}
              </Dialog.Description>
            </Dialog.Body>
            <Dialog.Footer>
              <Dialog.ActionTrigger asChild>
                <Button variant="outline" disabled={deleting}>
                  Cancel
                </Button>
              </Dialog.ActionTrigger>
              <Button colorPalette="red" onClick={onConfirm} loading={deleting} loadingText="Deleting...">
                Delete
              </Button>
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label="Close" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
