import { Toaster as ChakraToaster, Portal, Spinner, Stack, Toast, createToaster } from '@chakra-ui/react';

/** The app's single toaster: every toast of the spec goes through it. */
export const toaster = createToaster({ placement: 'bottom-end', pauseOnPageIdle: true, max: 5 });

type ToastText = string | undefined;

/**
 * How long every toast stays. Zag's defaults are 2 s for success and 5 s for the others: 'Site token rotated. Update
 * the script tag on your site: the old token no longer works.' was gone in 2 s, before it could be read (and
 * before a test on a busy machine looked). Errors already stayed 7 s; all toasts now do.
 */
const TOAST_MS = 7000;

/** 'Error' / 'An unexpected error occurred.': the toast for exceptions nobody expected. */
export const UNEXPECTED_ERROR = ['Error', 'An unexpected error occurred.'] as const;

/** Shorthands for the spec's toasts: a title and, usually, a description. */
export const notify = {
  success: (title: string, description?: ToastText) => toaster.create({ type: 'success', title, description, closable: true, duration: TOAST_MS }),
  error: (title: string, description?: ToastText) => toaster.create({ type: 'error', title, description, closable: true, duration: TOAST_MS }),
  info: (title: string, description?: ToastText) => toaster.create({ type: 'info', title, description, closable: true, duration: TOAST_MS }),
  warning: (title: string, description?: ToastText) => toaster.create({ type: 'warning', title, description, closable: true, duration: TOAST_MS }),
  unexpected: () => notify.error(...UNEXPECTED_ERROR),
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
