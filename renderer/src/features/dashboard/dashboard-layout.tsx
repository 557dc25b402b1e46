import { Avatar, Box, Button, Flex, HStack, IconButton, Link, Text, useMediaQuery } from '@chakra-ui/react';
import { LogOut, Menu } from 'lucide-react';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Outlet, Link as RouterLink, useNavigate } from 'react-router-dom';
import { useHydrated } from '../../app/hydration';
import { useSupabase } from '../../app/services';
import { Logo } from '../../ui/logo';
import { notify } from '../../ui/toaster';
import { useAuth } from '../../app/auth-context';
import { useOpenedOnce } from '../../ui/use-opened-once';
import { SidebarNav } from './sidebar-nav';
import { WorkspaceSwitcher, invitationPagePath, takePendingInvitation } from '../workspaces';
import { useLiveUpdates } from '../../api/live';

// Loaded when first opened: the dashboard's first load does not carry the drawer.
const MobileMenu = lazy(() => import('./mobile-menu').then((m) => ({ default: m.MobileMenu })));

/** The signed-in shell: top bar, sidebar (a 'Menu' drawer below 768 px), the page, and the footer. */
export function DashboardLayout() {
  // One live stream for the signed-in dashboard: progress, events and reports arrive on every page.
  useLiveUpdates();
  // The prerendered shell paints before React runs: a click on it then is replayed once the app runs
  // (app/before-app.ts), but the workspace switcher has nothing to show before it (its list needs the session).
  const hydrated = useHydrated();
  const { user } = useAuth();
  const supabase = useSupabase();
  const navigate = useNavigate();
  const [menuOpen, setMenuOpen] = useState(false);
  const [signingOut, setSigningOut] = useState(false);
  // md is 48em (768 px): the drawer exists only below it, so widening the window closes it.
  const [wide = false] = useMediaQuery(['(min-width: 48em)']);
  const menuWanted = useOpenedOnce(menuOpen && !wide);
  const email = user?.email ?? '';
  const initial = email.charAt(0).toUpperCase() || 'U';
  // Signed in after opening an invitation link signed out: back to the invitation, its token kept.
  const signedIn = Boolean(user);
  useEffect(() => {
    const token = signedIn ? takePendingInvitation() : null;
    if (token) void navigate(invitationPagePath(token), { replace: true });
  }, [signedIn, navigate]);

  async function handleSignOut() {
    setSigningOut(true);
    try {
      // This device only: signing out here should not end the user's sessions elsewhere.
      const { error } = await supabase.auth.signOut({ scope: 'local' });
      if (error) {
        notify.error('Error', error.message);
        setSigningOut(false);
        return;
      }
      await navigate('/login', { replace: true });
    } catch {
      notify.unexpected();
      setSigningOut(false);
    }
  }

  return (
    <Flex direction="column" minH="100dvh" bg="bg.subtle">
      <Flex as="header" h="16" px={{ base: '3', md: '6' }} align="center" justify="space-between" gap="3" bg="bg" borderBottomWidth="1px" position="sticky" top="0" zIndex="sticky">
        <HStack gap={{ base: '0', sm: '1' }} minW="0">
          <IconButton aria-label="Open menu" variant="ghost" hideFrom="md" onClick={() => setMenuOpen(true)}>
            <Menu />
          </IconButton>
          <Link asChild variant="plain" _hover={{ textDecoration: 'none' }}>
            <RouterLink to="/dashboard/projects" aria-label="vibeeval">
              <Logo compact />
            </RouterLink>
          </Link>
          <WorkspaceSwitcher disabled={!hydrated} />
        </HStack>
        {/* Avatar and Sign Out keep their size; the workspace's name on the left gives way (truncated) at 375 px. */}
        <HStack gap="3" minW="0" flexShrink="0">
          <Avatar.Root size="sm" colorPalette="brand" data-testid="user-avatar">
            <Avatar.Fallback>{initial}</Avatar.Fallback>
          </Avatar.Root>
          <Text hideBelow="md" fontSize="sm" color="fg.muted" truncate maxW="64" data-testid="user-email">
            {email}
          </Text>
          <Button variant="outline" size="sm" onClick={() => void handleSignOut()} loading={signingOut}>
            <LogOut />
            Sign Out
          </Button>
        </HStack>
      </Flex>

      <Flex flex="1" minH="0">
        <Box
          as="aside"
          hideBelow="md"
          w="64"
          flexShrink="0"
          bg="bg"
          borderRightWidth="1px"
          px="3"
          py="6"
          position="sticky"
          top="16"
          h="calc(100dvh - 4rem)"
          overflowY="auto"
          data-testid="sidebar"
        >
          <SidebarNav />
        </Box>
        <Flex direction="column" flex="1" minW="0">
          <Box as="main" flex="1" px={{ base: '4', md: '8' }} py={{ base: '6', md: '8' }}>
            {/* One content width for every dashboard page (pages set none of their own), capped on very wide screens. */}
            <Box maxW="7xl" mx="auto" data-testid="dashboard-content">
              <Outlet />
            </Box>
          </Box>
          <Flex as="footer" px={{ base: '4', md: '8' }} py="4" justify="space-between" gap="4" fontSize="sm" color="fg.muted" borderTopWidth="1px" bg="bg">
            <Text>vibeeval v1.0</Text>
            <Text>© 2025</Text>
          </Flex>
        </Flex>
      </Flex>

      {menuWanted && (
        <Suspense fallback={null}>
          <MobileMenu open={menuOpen && !wide} onOpenChange={setMenuOpen} />
        </Suspense>
      )}
    </Flex>
  );
}
