import { Badge, HStack, List, Text } from '@chakra-ui/react';
import { describeSignIn } from '@common/scan-accounts';
import type { ScanCoverage } from '@common/scan';
import { severityPalette } from '../../../ui/tones';

/** Whether the last scan signed in as each test account of the Credentials field, and why not. */
export function SignInsSummary({ signIns }: { signIns: NonNullable<ScanCoverage['signIns']> }) {
  if (signIns.length === 0) return null;
  return (
    <List.Root gap="1" variant="plain" fontSize="sm" as="ul" aria-label="Sign-ins" data-testid="scan-sign-ins">
      {signIns.map((outcome) => (
        <List.Item key={outcome.account} display="block" data-testid="scan-sign-in">
          <HStack gap="2" wrap="wrap" align="baseline">
            <Badge colorPalette={severityPalette(outcome.signedIn ? 'secure' : 'medium')} variant="subtle">
              {outcome.signedIn ? 'Signed in' : 'Not signed in'}
            </Badge>
            <Text as="span" wordBreak="break-word" minW="0">
              {describeSignIn(outcome)}
            </Text>
          </HStack>
        </List.Item>
      ))}
    </List.Root>
  );
}
