import { Box, Card, Flex, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useHydrated } from '../../app/hydration';
import { useServices } from '../../app/services';
import { DesktopLiveBrowser } from './desktop-live-browser';
import { texts } from './texts';
import { WebLiveBrowser } from './web-live-browser';

/**
 * The Live Browser Demo: a real site shown inside vibeeval, with an address bar, Back, Forward and Reload. In the
 * desktop app a native browser view owned by the main process; on the web a sandboxed iframe where the site
 * allows framing. `beside` is the spot next to the page for the monitoring script's state of the loaded page,
 * once that script exists (nothing is shown there until then).
 */
export function LiveBrowser({ beside }: { beside?: ReactNode }) {
  const { bridge, serverOrigin } = useServices();
  // The prerendered page has no bridge: the web shell first, the real mode once hydrated.
  const hydrated = useHydrated();
  const host = hydrated ? bridge.liveBrowser : null;

  return (
    <Flex direction={{ base: 'column', lg: 'row' }} gap="4" align="stretch">
      <Card.Root variant="outline" overflow="hidden" flex="1" minW="0" data-testid="live-browser">
        <Text px={{ base: '3', md: '4' }} pt="3" fontSize="sm" color="fg.muted">
          {host ? texts.desktopIntro : texts.webIntro}
        </Text>
        <Flex direction="column" h={{ base: '440px', md: '600px' }}>
          {host ? <DesktopLiveBrowser host={host} bridge={bridge} serverOrigin={serverOrigin} /> : <WebLiveBrowser serverOrigin={serverOrigin} ready={hydrated} />}
        </Flex>
      </Card.Root>
      {beside && (
        <Box as="aside" w={{ base: 'full', lg: '80' }} flexShrink="0">
          {beside}
        </Box>
      )}
    </Flex>
  );
}
