import { Box, Button, Flex, Heading, IconButton, Stack, Text } from '@chakra-ui/react';
import { COOKIE_CONSENT_KEY, MARKETING_TIMING, parseCookieConsent, type CookieConsent } from '@common/marketing';
import { X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useClientValue, useHydrated } from '../../../app/hydration';

const REJECT_NON_ESSENTIAL: CookieConsent = { necessary: true, analytics: false, marketing: false };
const ACCEPT_ALL: CookieConsent = { necessary: true, analytics: true, marketing: true };

/** The stored consent; storage that cannot be read (private mode, blocked) counts as none. */
function storedConsent(): CookieConsent | null {
  try {
    return parseCookieConsent(window.localStorage.getItem(COOKIE_CONSENT_KEY));
  } catch {
    return null;
  }
}

function storeConsent(consent: CookieConsent) {
  try {
    window.localStorage.setItem(COOKIE_CONSENT_KEY, JSON.stringify(consent));
  } catch {
    // Storage is unavailable: the choice holds for this visit only.
  }
}

/** <html data-cookie-banner="shown">: the banner's time has come (renderer/before-app.js sets it on a prerendered page). */
const SHOWN = 'shown';
const showBanner = () => {
  document.documentElement.dataset.cookieBanner = SHOWN;
};
const subscribeNever = () => () => {};

/**
 * The cookie consent banner: shown 1 s after the page when no choice is stored. The choice is saved only in this
 * browser (localStorage); the close button hides the banner for this visit without saving anything. A prerendered
 * page carries it hidden, and renderer/before-app.js shows it on time even while the app is still starting; a page
 * the app renders itself (another route first) shows it 1 s after it mounts, or at once if it was shown before.
 */
export function CookieBanner() {
  // Read once hydrated: the prerendered page (and the render that hydrates it) knows no stored choice.
  const choiceStored = useClientValue(subscribeNever, () => storedConsent() !== null, false);
  // Mounted by hydrating the prerendered page, where before-app.js keeps the time.
  const hydrated = useHydrated();
  const [prerendered] = useState(!hydrated);
  const [dismissed, setDismissed] = useState(false);

  useEffect(() => {
    if (prerendered || choiceStored || document.documentElement.dataset.cookieBanner === SHOWN) return;
    const timer = window.setTimeout(showBanner, MARKETING_TIMING.consentBannerDelayMs);
    return () => window.clearTimeout(timer);
  }, [prerendered, choiceStored]);

  if (choiceStored || dismissed) return null;

  const choose = (consent: CookieConsent) => {
    storeConsent(consent);
    setDismissed(true);
  };

  return (
    <Box
      role="region"
      aria-labelledby="cookie-banner-title"
      position="fixed"
      // A strip along the bottom on phones and tablets; from lg up a card in the bottom-right corner, so it never
      // covers the landing page's URL form, which sits at the foot of the first screen on a 1280x800 display.
      left={{ base: '0', lg: 'auto' }}
      right="0"
      bottom="0"
      zIndex="banner"
      p={{ base: '3', md: '4' }}
      pointerEvents="none"
      data-testid="cookie-banner"
      css={{ [`html:not([data-cookie-banner="${SHOWN}"]) &`]: { display: 'none' } }}
    >
      <Box
        pointerEvents="auto"
        position="relative"
        maxW={{ base: '3xl', lg: 'sm' }}
        mx={{ base: 'auto', lg: '0' }}
        bg="bg.panel"
        borderWidth="1px"
        borderRadius="l3"
        boxShadow="lg"
        p={{ base: '4', md: '5' }}
        pe={{ base: '12', md: '14' }}
      >
        <Flex direction={{ base: 'column', md: 'row', lg: 'column' }} gap={{ base: '3', md: '6', lg: '3' }} align={{ base: 'stretch', md: 'center', lg: 'stretch' }}>
          <Stack gap="1" flex="1">
            <Heading as="h2" id="cookie-banner-title" size="sm">
              We use cookies
            </Heading>
            <Text fontSize="sm" color="fg.muted">
              We use cookies to enhance your browsing experience, analyse site traffic and serve personalized content. Choose whether to allow the non-essential ones.
            </Text>
          </Stack>
          <Flex gap="2" flexShrink="0" direction={{ base: 'column', sm: 'row' }}>
            <Button size="sm" variant="outline" onClick={() => choose(REJECT_NON_ESSENTIAL)}>
              Reject non-essential
            </Button>
            <Button size="sm" colorPalette="brand" onClick={() => choose(ACCEPT_ALL)}>
              Accept all
            </Button>
          </Flex>
        </Flex>
        <IconButton aria-label="Close" variant="ghost" size="sm" position="absolute" top="2" insetEnd="2" onClick={() => setDismissed(true)}>
          <X />
        </IconButton>
      </Box>
    </Box>
  );
}
