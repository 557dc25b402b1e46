import type { ReactNode } from 'react';
import { AppDialog } from './app-dialog';

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
    <AppDialog
      open={open}
      onOpenChange={(next) => !next && onClose()}
      title={title}
      subtitle={subtitle}
      description={description}
      footer={footer}
      size={{ base: 'full', md: size }}
      scrollBehavior="inside"
      contentStyle={{ minH: { md: 'auto' }, borderRadius: { md: 'l3' } }}
    >
      {children}
    </AppDialog>
  );
}
