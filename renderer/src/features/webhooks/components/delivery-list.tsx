import { Badge, Box, Button, HStack, Skeleton, Stack, Text } from '@chakra-ui/react';
import type { WebhookAttempt, WebhookDelivery } from '@common/webhooks';
import { RefreshCw } from 'lucide-react';
import { LoadMore } from '../../../ui/load-more';
import { formatEventTime } from '../../../ui/relative-date';
import { useWebhookDeliveries } from '../hooks/use-webhook-deliveries';
import { texts } from '../texts';
import { attemptOutcome, deliveryPalette } from '../webhook-format';

/** A webhook's recent deliveries, newest first, each with its attempts (code, time, duration, response excerpt). */
export function DeliveryList({ webhookId }: { webhookId: string }) {
  const query = useWebhookDeliveries(webhookId, true);
  if (query.isLoading) {
    return (
      <Stack gap="2" aria-busy="true" aria-label="Loading deliveries">
        <Skeleton h="12" />
        <Skeleton h="12" />
      </Stack>
    );
  }
  if (query.isError && !query.data) {
    return (
      <HStack role="alert" gap="3" wrap="wrap" fontSize="sm">
        <Text color="fg.error">{query.error.message || texts.deliveriesLoadFailed}</Text>
        <Button size="xs" variant="outline" onClick={() => void query.refetch()}>
          <RefreshCw aria-hidden /> {texts.retry}
        </Button>
      </HStack>
    );
  }
  return (
    <Stack gap="2" data-testid="webhook-deliveries">
      <Text fontSize="sm" fontWeight="semibold">
        {texts.deliveries}
      </Text>
      {query.deliveries.length === 0 ? (
        <Text fontSize="sm" color="fg.muted">
          {texts.deliveriesEmpty}
        </Text>
      ) : (
        query.deliveries.map((delivery) => <DeliveryItem key={delivery.id} delivery={delivery} />)
      )}
      <LoadMore query={query} label={texts.loadMore} testId="load-more-deliveries" />
    </Stack>
  );
}

function DeliveryItem({ delivery }: { delivery: WebhookDelivery }) {
  return (
    <Box borderWidth="1px" borderRadius="md" p="3" bg="bg.subtle" data-testid="webhook-delivery">
      <HStack gap="2" wrap="wrap" justify="space-between">
        <HStack gap="2" wrap="wrap" minW="0">
          <Text fontFamily="mono" fontSize="sm" fontWeight="semibold">
            {delivery.event_type}
          </Text>
          <Badge colorPalette={deliveryPalette(delivery.status)} data-testid="delivery-status">
            {delivery.status}
          </Badge>
        </HStack>
        <Text fontSize="xs" color="fg.muted">
          {formatEventTime(delivery.created_at)}
        </Text>
      </HStack>
      {delivery.next_attempt_at && delivery.status === 'pending' && (
        <Text fontSize="xs" color="fg.muted" mt="1">
          Next attempt {formatEventTime(delivery.next_attempt_at)}
        </Text>
      )}
      <Stack as="ol" gap="1.5" mt="2" listStyleType="none">
        {delivery.attempts.map((attempt, index) => (
          <AttemptItem key={`${attempt.attempted_at}-${index}`} attempt={attempt} number={index + 1} />
        ))}
      </Stack>
    </Box>
  );
}

function AttemptItem({ attempt, number }: { attempt: WebhookAttempt; number: number }) {
  const ok = attempt.status_code !== null && attempt.status_code >= 200 && attempt.status_code <= 299;
  return (
    <Box as="li" fontSize="xs" borderTopWidth="1px" pt="1.5" data-testid="webhook-attempt">
      <HStack gap="3" wrap="wrap">
        <Text color="fg.muted">
          {texts.attempt} {number}
        </Text>
        <Text fontFamily="mono" fontWeight="semibold" color={ok ? 'fg.success' : 'fg.error'} data-testid="attempt-outcome">
          {attemptOutcome(attempt)}
        </Text>
        <Text color="fg.muted">{formatEventTime(attempt.attempted_at)}</Text>
        <Text color="fg.muted">{attempt.duration_ms} ms</Text>
      </HStack>
      {attempt.response_excerpt && (
        <Box as="pre" mt="1" fontFamily="mono" whiteSpace="pre-wrap" wordBreak="break-all" color="fg.muted" maxH="24" overflowY="auto">
          {attempt.response_excerpt}
        </Box>
      )}
    </Box>
  );
}
