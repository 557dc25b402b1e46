import { Box, Container, Heading, HStack, Icon, Stack, Text, Wrap } from '@chakra-ui/react';
import { Check } from 'lucide-react';
import { UrlTest } from '../url-test/url-test';
import { CHECK_COUNT } from '../../../ui/check-count';

const HIGHLIGHTS = [`${CHECK_COUNT} security checks`, 'Evidence for every finding', 'No cloud account needed'];

/** The hero: the promise in one line, what it means, and the URL test right under it. */
export function Hero() {
  return (
    <Box
      as="section"
      aria-labelledby="hero-title"
      position="relative"
      overflow="hidden"
      pt={{ base: '12', md: '20' }}
      pb={{ base: '12', md: '16' }}
      // A faint brand glow behind the headline; pure CSS, no image.
      bgImage="radial-gradient(ellipse 80% 50% at 50% -10%, {colors.brand.subtle}, transparent)"
    >
      <Container maxW="7xl" px={{ base: '4', md: '6' }}>
        <Stack gap={{ base: '5', md: '6' }} align="center" textAlign="center" maxW="4xl" mx="auto">
          <Text as="span" px="3" py="1" borderRadius="full" borderWidth="1px" borderColor="brand.muted" bg="bg.panel" color="brand.fg" fontSize="sm" fontWeight="medium">
            Security testing for vibe-coded apps
          </Text>
          <Heading as="h1" id="hero-title" fontSize={{ base: '4xl', sm: '5xl', lg: '6xl' }} lineHeight="1.08" letterSpacing="tight" fontWeight="bold" textWrap="balance">
            Find the security holes in your AI-built app{' '}
            <Box as="span" color="brand.fg">
              before anyone else does
            </Box>
          </Heading>
          <Text fontSize={{ base: 'lg', md: 'xl' }} color="fg.muted" maxW="2xl" textWrap="pretty">
            Built with Lovable, Bolt, v0, Cursor or Claude Code? vibeeval checks the live site for readable Supabase tables, leaked keys, exposed files and weak headers, and shows
            the proof for each one.
          </Text>
          <Wrap as="ul" justify="center" gap={{ base: '3', md: '6' }} listStyleType="none" fontSize="sm" color="fg.muted">
            {HIGHLIGHTS.map((item) => (
              <HStack as="li" key={item} gap="1.5">
                <Icon boxSize="4" color="severity.secure.fg" aria-hidden="true">
                  <Check />
                </Icon>
                {item}
              </HStack>
            ))}
          </Wrap>
        </Stack>
        <Box w="full" maxW="1100px" mx="auto" mt={{ base: '8', md: '12' }}>
          <UrlTest />
        </Box>
      </Container>
    </Box>
  );
}
