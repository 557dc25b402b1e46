import { Button, Card, Icon, Text, VStack } from '@chakra-ui/react';
import { AlertTriangle, RefreshCw } from 'lucide-react';

/** A list that could not load: what failed, why (when it says more), and one button to try again. */
export function LoadErrorCard({
  problem,
  reason,
  actionLabel,
  onAction,
}: {
  problem: string;
  /** Shown under the problem when given and different from it. */
  reason?: string;
  actionLabel: string;
  onAction: () => void;
}) {
  return (
    <Card.Root variant="outline" role="alert">
      <Card.Body>
        <VStack gap="3" py="8" textAlign="center">
          <Icon color="fg.error" boxSize="8">
            <AlertTriangle />
          </Icon>
          <Text fontWeight="semibold" fontSize="lg">
            {problem}
          </Text>
          {reason && reason !== problem && <Text color="fg.muted">{reason}</Text>}
          <Button colorPalette="brand" onClick={onAction}>
            <RefreshCw aria-hidden /> {actionLabel}
          </Button>
        </VStack>
      </Card.Body>
    </Card.Root>
  );
}
