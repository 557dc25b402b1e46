import { Box } from '@chakra-ui/react';
import { Outlet } from 'react-router-dom';
import { TopNav } from './top-nav';

/** Public pages (marketing, auth screens, not found): the top navigation bar over the page. */
export function PublicLayout() {
  return (
    <>
      <TopNav />
      <Box as="main">
        <Outlet />
      </Box>
    </>
  );
}
