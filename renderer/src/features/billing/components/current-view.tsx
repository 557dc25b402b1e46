import { Badge, Card, Grid, HStack, Heading, List, Stack, Text } from '@chakra-ui/react';
import { Check } from 'lucide-react';
import type { HistoryRow } from '../billing-view';
import { texts } from '../texts';

/** The current sub-view with a subscription: the Billing History card (one row) and 'Your Plan Features'. */
export function CurrentView({ row, features }: { row: HistoryRow; features: readonly string[] }) {
  return (
    <Grid templateColumns={{ base: 'minmax(0, 1fr)', lg: 'repeat(2, minmax(0, 1fr))' }} gap="6" alignItems="start">
      <Card.Root variant="outline">
        <Card.Body gap="4">
          <Heading as="h2" size="md">
            {texts.historyTitle}
          </Heading>
          <HStack justify="space-between" align="start" gap="3" wrap="wrap" borderWidth="1px" borderRadius="md" p="3" data-testid="billing-history-row">
            <Stack gap="0.5" minW="0">
              <Text fontWeight="semibold">{row.name}</Text>
              <Text fontSize="sm" color="fg.muted">
                {row.label}
              </Text>
            </Stack>
            <Stack gap="1" align="end">
              <Text fontWeight="semibold">{row.price}</Text>
              <Badge colorPalette={row.active ? 'status.active' : 'status.other'} variant="solid">
                {row.status}
              </Badge>
            </Stack>
          </HStack>
        </Card.Body>
      </Card.Root>
      <Card.Root variant="outline">
        <Card.Body gap="4">
          <Heading as="h2" size="md">
            {texts.featuresTitle}
          </Heading>
          <List.Root gap="2" variant="plain" data-testid="billing-features">
            {features.map((feature) => (
              <List.Item key={feature} alignItems="center">
                <List.Indicator asChild color="fg.success">
                  <Check aria-hidden />
                </List.Indicator>
                {feature}
              </List.Item>
            ))}
          </List.Root>
        </Card.Body>
      </Card.Root>
    </Grid>
  );
}
