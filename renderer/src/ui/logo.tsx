import { HStack, Icon, Text } from '@chakra-ui/react';
import { ShieldCheck } from 'lucide-react';

/** The vibeeval mark and word; the word is the accessible name, the shield is decorative. */
export function Logo() {
  return (
    <HStack gap="2">
      <Icon color="brand.solid" boxSize="6" aria-hidden="true">
        <ShieldCheck />
      </Icon>
      <Text as="span" fontWeight="bold" fontSize="lg" letterSpacing="tight">
        vibeeval
      </Text>
    </HStack>
  );
}
