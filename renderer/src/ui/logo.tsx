import { HStack, Icon, Text } from '@chakra-ui/react';
import { ShieldCheck } from 'lucide-react';

/**
 * The vibeeval mark and word; the word is the accessible name, the shield is decorative. `compact`: below 480 px
 * only the mark shows, for a top bar that also holds the workspace switcher (its link then carries the name).
 */
export function Logo({ compact = false }: { compact?: boolean }) {
  return (
    <HStack gap="2">
      <Icon color="brand.solid" boxSize="6" aria-hidden="true">
        <ShieldCheck />
      </Icon>
      <Text as="span" fontWeight="bold" fontSize="lg" letterSpacing="tight" hideBelow={compact ? 'sm' : undefined}>
        vibeeval
      </Text>
    </HStack>
  );
}
