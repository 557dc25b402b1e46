import { Box, HStack, IconButton, Text } from '@chakra-ui/react';
import { Eye, EyeOff } from 'lucide-react';
import { useState } from 'react';

/** Credentials shown as dots until revealed; 'No credentials provided' when there are none. */
export function MaskedSecret({ value }: { value: string | null }) {
  const [revealed, setRevealed] = useState(false);
  if (!value) return <Text color="fg.muted">No credentials provided</Text>;
  return (
    <HStack align={revealed ? 'start' : 'center'} gap="2" minW="0">
      <Box
        flex={revealed ? '1' : undefined}
        minW="0"
        fontFamily={revealed ? 'mono' : undefined}
        fontSize="sm"
        whiteSpace="pre-wrap"
        wordBreak="break-all"
        data-testid="credentials-value"
      >
        {revealed ? value : '•'.repeat(Math.min(12, Math.max(8, value.length)))}
      </Box>
      <IconButton size="xs" variant="ghost" aria-label={revealed ? 'Hide credentials' : 'Show credentials'} aria-pressed={revealed} onClick={() => setRevealed((shown) => !shown)}>
        {revealed ? <EyeOff /> : <Eye />}
      </IconButton>
    </HStack>
  );
}
