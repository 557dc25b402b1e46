import { CloseButton, Dialog, Portal } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { keepOpenForToasts } from './dialog-outside';

/**
 * A dialog for reading or choosing (code, details, proposals): full screen on phones, a wide centred panel from
 * md up, a title with a line under it, a scrolling body, an optional footer and a Close button.
 */
export function PanelDialog({
  open,
  onClose,
  title,
  subtitle,
  description,
  footer,
  size = 'xl',
  children,
}: {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  subtitle?: ReactNode;
  /** A plain sentence under the title, announced as the dialog's description. */
  description?: string;
  footer?: ReactNode;
  size?: 'lg' | 'xl';
  children: ReactNode;
}) {
  return (
    <Dialog.Root onInteractOutside={keepOpenForToasts} open={open} onOpenChange={(d) => !d.open && onClose()} size={{ base: 'full', md: size }} scrollBehavior="inside" placement="center">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content minH={{ md: 'auto' }} borderRadius={{ md: 'l3' }}>
            <Dialog.Header flexDirection="column" alignItems="start" gap="1">
              <Dialog.Title wordBreak="break-word">{title}</Dialog.Title>
              {subtitle}
              {description && (
                <Dialog.Description fontSize="sm" color="fg.muted">
                  {description}
                </Dialog.Description>
              )}
            </Dialog.Header>
            <Dialog.Body>{children}</Dialog.Body>
            {footer && <Dialog.Footer>{footer}</Dialog.Footer>}
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label="Close" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
