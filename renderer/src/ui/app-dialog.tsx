import { CloseButton, Dialog, Portal, type DialogContentProps, type DialogRootProps } from '@chakra-ui/react';
import type { FormEvent, ReactNode } from 'react';
import { keepOpenForToasts } from './dialog-outside';

/** What every dialog of the app is built from: open state, title, body, footer, and how it sits on the screen. */
export interface AppDialogProps {
  open: boolean;
  /** Called with false when the dialog asks to close (Escape, outside click, the close button, an ActionTrigger). */
  onOpenChange: (open: boolean) => void;
  /** The title; without one the children are the whole content (a dialog that lays out its own header). */
  title?: ReactNode;
  /** Lines under the title (e.g. the name of what the dialog is about). */
  subtitle?: ReactNode;
  /** A plain sentence under the title, announced as the dialog's description. */
  description?: ReactNode;
  /** The buttons, laid out the one way every dialog does: at the end, wrapping on a narrow screen. */
  footer?: ReactNode;
  /** The dialog is a form: Enter submits it, and its label names it. */
  form?: { onSubmit: (event: FormEvent<HTMLFormElement>) => void; label?: string };
  /** The close button in the corner; off where only an explicit choice may close the dialog. */
  closable?: boolean;
  /** For tests: on the dialog's content (the form, when it is one). */
  testId?: string;
  size?: DialogRootProps['size'];
  placement?: DialogRootProps['placement'];
  role?: DialogRootProps['role'];
  scrollBehavior?: DialogRootProps['scrollBehavior'];
  closeOnInteractOutside?: boolean;
  /** Style of the content box (e.g. a full-screen dialog on phones that is a rounded panel from md up). */
  contentStyle?: Omit<DialogContentProps, 'children' | 'asChild'>;
  /** Mount the content on first open and drop it on close (a dialog whose content fetches). */
  lazy?: boolean;
  children: ReactNode;
}

/**
 * The app's dialog. It carries what every dialog needs and used to repeat: a click on a toast is not a click away
 * from it (dismissing a toast must not close the dialog and lose what was typed, see dialog-outside.ts), the close
 * button, the header, and the footer's layout.
 */
export function AppDialog({
  open,
  onOpenChange,
  title,
  subtitle,
  description,
  footer,
  form,
  closable = true,
  testId,
  size = { base: 'xs', sm: 'md' },
  placement = 'center',
  role,
  scrollBehavior,
  closeOnInteractOutside,
  contentStyle,
  lazy,
  children,
}: AppDialogProps) {
  const parts = (
    <>
      {title === undefined ? (
        children
      ) : (
        <>
          {/* Room at the end for the close button, which sits over the header's corner. */}
          <Dialog.Header flexDirection="column" alignItems="start" gap="1" pe={closable ? '12' : undefined}>
            <Dialog.Title wordBreak="break-word">{title}</Dialog.Title>
            {subtitle}
            {description && (
              <Dialog.Description fontSize="sm" color="fg.muted">
                {description}
              </Dialog.Description>
            )}
          </Dialog.Header>
          <Dialog.Body>{children}</Dialog.Body>
          {footer && <Dialog.Footer flexWrap="wrap">{footer}</Dialog.Footer>}
        </>
      )}
      {closable && (
        <Dialog.CloseTrigger asChild>
          <CloseButton size="sm" aria-label="Close" />
        </Dialog.CloseTrigger>
      )}
    </>
  );
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(details) => onOpenChange(details.open)}
      onInteractOutside={keepOpenForToasts}
      size={size}
      placement={placement}
      // Only what is given: an explicit undefined would not be the same as Chakra's default.
      {...(role && { role })}
      {...(scrollBehavior && { scrollBehavior })}
      {...(closeOnInteractOutside !== undefined && { closeOnInteractOutside })}
      {...(lazy && { lazyMount: true, unmountOnExit: true })}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          {form ? (
            <Dialog.Content asChild {...contentStyle}>
              <form onSubmit={form.onSubmit} noValidate aria-label={form.label} data-testid={testId}>
                {parts}
              </form>
            </Dialog.Content>
          ) : (
            <Dialog.Content data-testid={testId} {...contentStyle}>
              {parts}
            </Dialog.Content>
          )}
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
