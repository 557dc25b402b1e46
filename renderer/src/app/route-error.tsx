import { Button, Code, Container, Heading, Stack, Text } from '@chakra-ui/react';
import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { useDocumentTitle } from '../ui/use-document-title';

function describe(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`;
  if (error instanceof Error) return error.message;
  return String(error);
}

/** The router's error element: a page threw while loading or rendering. */
export function RouteError() {
  const error = useRouteError();
  useDocumentTitle('Error');
  if (import.meta.env.DEV) console.error(error);
  return (
    <Container maxW="2xl" py={{ base: '16', md: '24' }}>
      <Stack gap="4" role="alert">
        <Heading as="h1" size="2xl">
          Unexpected Application Error!
        </Heading>
        <Code whiteSpace="pre-wrap" p="3" data-testid="route-error-message">
          {describe(error)}
        </Code>
        <Text color="fg.muted">Reload the page, or go back to the start.</Text>
        <Stack direction="row" gap="3">
          <Button colorPalette="brand" onClick={() => window.location.reload()}>
            Reload
          </Button>
          {/* A full load, not a router navigation: the router may be what failed. */}
          <Button asChild variant="outline">
            <a href="/">Return Home</a>
          </Button>
        </Stack>
      </Stack>
    </Container>
  );
}
