import { Box, Flex } from '@chakra-ui/react';
import { Outlet } from 'react-router-dom';
import { CookieBanner } from './landing/cookie-banner';
import { SiteFooter } from './landing/site-footer';
import { TopNav } from './top-nav';

/**
 * Public pages (marketing, legal, auth screens, not found): the top navigation bar, the page, the site footer,
 * and the cookie banner until a choice is stored.
 */
export function PublicLayout() {
  return (
    <Flex direction="column" minH="100dvh">
      <TopNav />
      <Box as="main" flex="1">
        <Outlet />
      </Box>
      <SiteFooter />
      <CookieBanner />
    </Flex>
  );
}
