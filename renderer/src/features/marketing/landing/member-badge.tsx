import { Box, Container, Flex, Text } from '@chakra-ui/react';
import { ExternalLink } from '../../../ui/external-link';

/** 'Member of the OWASP Foundation', a link to owasp.org; the shield drawn here is our own, not OWASP's logo. */
export function MemberBadge() {
  return (
    <Box as="aside" aria-label="Memberships" pb={{ base: '16', md: '20' }}>
      <Container maxW="6xl" px={{ base: '4', md: '6' }} display="flex" justifyContent="center">
        <ExternalLink
          href="https://owasp.org"
          variant="plain"
          display="inline-flex"
          alignItems="center"
          gap="3"
          px="5"
          py="3"
          borderWidth="1px"
          borderRadius="full"
          bg="bg.panel"
          color="fg"
          _hover={{ textDecoration: 'none', borderColor: 'brand.solid' }}
          focusVisibleRing="outside"
        >
          <Flex w="9" h="9" align="center" justify="center" borderRadius="full" bg="brand.subtle" color="brand.fg" flexShrink="0">
            <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true" focusable="false">
              <path d="M12 2 4 5v6c0 5 3.4 9.4 8 11 4.6-1.6 8-6 8-11V5Z" />
              <path d="m8.5 12 2.5 2.5 4.5-5" />
            </svg>
          </Flex>
          <Box textAlign="start">
            <Text as="span" display="block" fontSize="xs" color="fg.muted" textTransform="uppercase" letterSpacing="wider">
              Member of the
            </Text>{' '}
            <Text as="span" display="block" fontWeight="semibold">
              OWASP Foundation
            </Text>
          </Box>
        </ExternalLink>
      </Container>
    </Box>
  );
}
