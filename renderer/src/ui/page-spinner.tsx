import { Center, Spinner, VisuallyHidden } from '@chakra-ui/react';

/** A centred spinner for whole-page waits (boot, session check, lazy pages). */
export function PageSpinner({ label = 'Loading...', minH = '100dvh' }: { label?: string; minH?: string }) {
  return (
    <Center minH={minH} role="status" aria-live="polite" data-testid="page-spinner">
      <Spinner size="xl" color="brand.solid" borderWidth="3px" />
      <VisuallyHidden>{label}</VisuallyHidden>
    </Center>
  );
}
