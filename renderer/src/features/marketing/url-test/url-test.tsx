import { Box } from '@chakra-ui/react';

/**
 * The hero's URL test: the form with its status, the three demo examples, the demo report card and the
 * dialogs (email, own domain). Placed in the landing page's hero by the landing page.
 */
export function UrlTest() {
  return <Box data-testid="url-test" />;
}
