import { Button, Dialog } from '@chakra-ui/react';
import { AppDialog } from './app-dialog';

/** A delete confirmation: the question, the name of what goes, Cancel and a red Delete that shows progress. */
export function ConfirmDeleteDialog({
  title,
  question,
  name,
  open,
  onOpenChange,
  onConfirm,
  deleting,
  confirmLabel = 'Delete',
  busyLabel = 'Deleting...',
  dismissLabel = 'Cancel',
}: {
  /** e.g. 'Delete project' */
  title: string;
  /** e.g. 'Are you sure you want to delete this project?' */
  question: string;
  /** What is being deleted, shown under the question. */
  name: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onConfirm: () => void;
  deleting: boolean;
  /** The red button's label when the action is not called Delete, e.g. 'Revoke'. */
  confirmLabel?: string;
  busyLabel?: string;
  /** The button that keeps things as they are, when 'Cancel' would be ambiguous (e.g. cancelling a subscription). */
  dismissLabel?: string;
}) {
  return (
    <AppDialog
      open={open}
      onOpenChange={onOpenChange}
      role="alertdialog"
      size={{ base: 'xs', sm: 'sm' }}
      title={title}
      footer={
        <>
          <Dialog.ActionTrigger asChild>
            <Button variant="outline" disabled={deleting}>
              {dismissLabel}
            </Button>
          </Dialog.ActionTrigger>
          <Button colorPalette="red" onClick={onConfirm} loading={deleting} loadingText={busyLabel}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      <Dialog.Description>{question}</Dialog.Description>
      <Dialog.Description mt="2" color="fg.muted" fontSize="sm" wordBreak="break-word">
        {name}
      </Dialog.Description>
    </AppDialog>
  );
}
