import { Button, Dialog } from '@chakra-ui/react';
import { PUBLIC_SCAN_MESSAGES } from '@common/marketing';
import { AppDialog } from '../../../ui/app-dialog';

/** Someone asked vibeeval to scan vibe-eval.com. */
export function OwnDomainDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <AppDialog
      open={open}
      onOpenChange={(next) => !next && onClose()}
      closable={false}
      role="alertdialog"
      size={{ base: 'xs', sm: 'sm' }}
      title={PUBLIC_SCAN_MESSAGES.ownDomainTitle}
      footer={
        <Dialog.ActionTrigger asChild>
          <Button colorPalette="brand">{PUBLIC_SCAN_MESSAGES.ownDomainButton}</Button>
        </Dialog.ActionTrigger>
      }
    >
      <Dialog.Description>{PUBLIC_SCAN_MESSAGES.ownDomainText}</Dialog.Description>
    </AppDialog>
  );
}
