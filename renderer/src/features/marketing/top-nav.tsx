import { Box, Button, Container, Flex, HStack, Link } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router-dom';
import { Logo } from '../../ui/logo';
import { useAuth } from '../../app/auth-context';

/** The top bar of every public page: logo, Pricing, and Dashboard or Login + Try Now. */
export function TopNav() {
  const { user, loading } = useAuth();
  return (
    <Box as="header" position="sticky" top="0" zIndex="sticky" bg="bg/90" backdropFilter="blur(8px)" borderBottomWidth="1px">
      <Container maxW="7xl" px={{ base: '4', md: '6' }}>
        <Flex h="16" align="center" justify="space-between" gap="4">
          <Link asChild variant="plain" _hover={{ textDecoration: 'none' }}>
            <RouterLink to="/">
              <Logo />
            </RouterLink>
          </Link>
          <HStack as="nav" aria-label="Main" gap={{ base: '3', md: '6' }}>
            <Link asChild variant="plain" fontWeight="medium" color="fg.muted" _hover={{ color: 'fg' }}>
              <RouterLink to="/#pricing">Pricing</RouterLink>
            </Link>
            {/*
              Hidden until the session is known, so a signed-in user never sees Login flash by; the signed-out
              links keep their place meanwhile (the prerendered page has them too), so nothing moves when they show.
            */}
            {user ? (
              <Button asChild colorPalette="brand" size="sm">
                <RouterLink to="/dashboard">Dashboard</RouterLink>
              </Button>
            ) : (
              <>
                <Link asChild variant="plain" fontWeight="medium" color="fg.muted" _hover={{ color: 'fg' }} visibility={loading ? 'hidden' : undefined}>
                  <RouterLink to="/login">Login</RouterLink>
                </Link>
                <Button asChild colorPalette="brand" size="sm" visibility={loading ? 'hidden' : undefined}>
                  <RouterLink to="/signup">Try Now</RouterLink>
                </Button>
              </>
            )}
          </HStack>
        </Flex>
      </Container>
    </Box>
  );
}
