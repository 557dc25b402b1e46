import { Box, Container, Flex, Link, Stack, Text } from '@chakra-ui/react';
import { CONTACT, mailto } from '@common/marketing';
import { Link as RouterLink } from 'react-router-dom';
import { Logo } from '../../../ui/logo';
import { useCurrentYear } from '../../../ui/use-current-year';

const PAGES = [
  { label: 'Terms of Service', to: '/terms' },
  { label: 'Privacy Policy', to: '/privacy' },
  { label: 'Press Kit', to: '/press' },
  { label: 'Use Cases', to: '/use-cases' },
  { label: 'Updates', to: '/updates' },
  { label: 'Affiliate Program', to: '/affiliate' },
] as const;

const linkStyle = { color: 'fg.muted', fontSize: 'sm', _hover: { color: 'fg' } } as const;

/** The public site's footer: logo, the site's pages, a contact address and the copyright line. */
export function SiteFooter() {
  const year = useCurrentYear();
  return (
    <Box as="footer" borderTopWidth="1px" bg="bg.subtle" mt="auto">
      <Container maxW="7xl" px={{ base: '4', md: '6' }} py={{ base: '10', md: '12' }}>
        <Flex direction={{ base: 'column', md: 'row' }} justify="space-between" gap="8">
          <Stack gap="3" maxW="sm">
            <Link asChild variant="plain" alignSelf="start" _hover={{ textDecoration: 'none' }}>
              <RouterLink to="/">
                <Logo />
              </RouterLink>
            </Link>
            <Text fontSize="sm" color="fg.muted">
              Security testing for apps built with AI coding tools.
            </Text>
          </Stack>
          <Box as="nav" aria-label="Footer">
            <Box
              as="ul"
              display="grid"
              gridTemplateColumns={{ base: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(3, auto)' }}
              columnGap={{ base: '6', md: '10' }}
              rowGap="3"
              listStyleType="none"
            >
              {PAGES.map((page) => (
                <li key={page.to}>
                  <Link asChild variant="plain" {...linkStyle}>
                    <RouterLink to={page.to}>{page.label}</RouterLink>
                  </Link>
                </li>
              ))}
              <li>
                <Link variant="plain" href={mailto(CONTACT.support)} {...linkStyle}>
                  Contact Us
                </Link>
              </li>
            </Box>
          </Box>
        </Flex>
        <Text mt="10" pt="6" borderTopWidth="1px" fontSize="sm" color="fg.muted">
          © {year} vibeeval. All rights reserved.
        </Text>
      </Container>
    </Box>
  );
}
