import { Button, Dialog, Portal } from '@chakra-ui/react';
import { PUBLIC_SCAN_MESSAGES } from '@common/marketing';
import { keepOpenForToasts } from '../../../ui/dialog-outside';

/** Someone asked vibeeval to scan vibe-eval.com. */
export function OwnDomainDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog.Root onInteractOutside={keepOpenForToasts} open={open} onOpenChange={(details) => !details.open && onClose()} role="alertdialog" size={{ base: 'xs', sm: 'sm' }} placement="center">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>{PUBLIC_SCAN_MESSAGES.ownDomainTitle}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Dialog.Description>{PUBLIC_SCAN_MESSAGES.ownDomainText}</Dialog.Description>
            </Dialog.Body>
            <Dialog.Footer>
              <Dialog.ActionTrigger asChild>
                <Button colorPalette="brand">{PUBLIC_SCAN_MESSAGES.ownDomainButton}</Button>
              </Dialog.ActionTrigger>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
