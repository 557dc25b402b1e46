import { Toaster as ChakraToaster, Portal, Spinner, Stack, Toast, createToaster } from '@chakra-ui/react';

/** The app's single toaster: every toast of the spec goes through it. */
export const toaster = createToaster({ placement: 'bottom-end', pauseOnPageIdle: true, max: 5 });

type ToastText = string | undefined;

/** Shorthands for the spec's toasts: a title and, usually, a description. */
export const notify = {
  success: (title: string, description?: ToastText) =>
    toaster.create({ type: 'success', title, description, closable: true }),
  error: (title: string, description?: ToastText) =>
    toaster.create({ type: 'error', title, description, closable: true, duration: 7000 }),
  info: (title: string, description?: ToastText) => toaster.create({ type: 'info', title, description, closable: true }),
  warning: (title: string, description?: ToastText) =>
    toaster.create({ type: 'warning', title, description, closable: true }),
  /** 'Error' / 'An unexpected error occurred.' for exceptions nobody expected. */
  unexpected: () => notify.error('Error', 'An unexpected error occurred.'),
};

/** Renders the toasts; mounted once at the root. */
export function Toaster() {
  return (
    <Portal>
      <ChakraToaster toaster={toaster} insetInline={{ mdDown: '4' }}>
        {(toast) => (
          // White text needs a darker green than the theme's solid one, and a description at full opacity, for 4.5:1.
          <Toast.Root width={{ md: 'sm' }} data-testid="toast" data-type={toast.type} css={{ '&[data-type=success]': { bg: 'green.700' } }}>
            {toast.type === 'loading' ? <Spinner size="sm" color="brand.solid" /> : <Toast.Indicator />}
            <Stack gap="1" flex="1" maxWidth="100%">
              {toast.title && <Toast.Title>{toast.title}</Toast.Title>}
              {toast.description && <Toast.Description opacity="1">{toast.description}</Toast.Description>}
            </Stack>
            {toast.action && <Toast.ActionTrigger>{toast.action.label}</Toast.ActionTrigger>}
            {toast.closable && <Toast.CloseTrigger aria-label="Close notification" />}
          </Toast.Root>
        )}
      </ChakraToaster>
    </Portal>
  );
}
