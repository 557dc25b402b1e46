import { Button, Code, Container, Heading, HStack, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import { CONTACT, mailto } from '@common/marketing';
import { useDocumentTitle } from '../../ui/use-document-title';

/** Any path no route claims. */
export function NotFoundPage() {
  const { pathname } = useLocation();
  useDocumentTitle('Page not found');
  return (
    <Container maxW="2xl" py={{ base: '16', md: '24' }}>
      <Stack gap="5" align="center" textAlign="center">
        <Text fontSize="6xl" fontWeight="bold" color="brand.solid" lineHeight="1" aria-hidden="true">
          404
        </Text>
        <Heading as="h1" size="2xl">
          Page not found
        </Heading>
        <Text color="fg.muted">
          Nothing lives at{' '}
          <Code data-testid="not-found-path" wordBreak="break-all">
            {pathname}
          </Code>
        </Text>
        <HStack gap="3" flexWrap="wrap" justify="center">
          <Button asChild colorPalette="brand">
            <RouterLink to="/">Return Home</RouterLink>
          </Button>
          <Button asChild variant="outline">
            <a href={mailto(CONTACT.support)}>Contact Support</a>
          </Button>
        </HStack>
      </Stack>
    </Container>
  );
}
