import { chakra } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useHydrated } from '../app/hydration';

/**
 * A form's fields and buttons, disabled until the page is hydrated: on a prerendered page, text typed before
 * React takes over would be lost, and a send would leave as a plain form post instead of the app's call.
 */
export function FormFields({ children }: { children: ReactNode }) {
  const hydrated = useHydrated();
  return (
    <chakra.fieldset disabled={!hydrated} border="0" p="0" m="0" minW="0">
      {children}
    </chakra.fieldset>
  );
}
