import { Container, Heading, Text } from '@chakra-ui/react';
import { useDocumentTitle } from '../../ui/use-document-title';

/** / (the hero, demos, pricing and testimonials come later). */
export function LandingPage() {
  useDocumentTitle();
  return (
    <Container maxW="5xl" py={{ base: '10', md: '16' }}>
      <Heading as="h1" size="2xl" letterSpacing="tight">
        vibeeval
      </Heading>
      <Text color="fg.muted">Security testing for apps built with AI coding tools</Text>
      {/* The top bar's Pricing link points here. */}
      <Heading as="h2" id="pricing" size="xl" mt="16" scrollMarginTop="20">
        Pricing
      </Heading>
    </Container>
  );
}
