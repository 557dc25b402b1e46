import { Box, Card, Heading, Stack, Text } from '@chakra-ui/react';
import { WEBHOOK_EVENT_DESCRIPTIONS, WEBHOOK_EVENT_TYPES } from '@common/webhooks';
import { texts } from '../texts';

/** The event types a webhook receives, each with what it means. */
export function EventTypes() {
  return (
    <Card.Root variant="outline">
      <Card.Body gap="3">
        <Heading as="h2" size="md">
          {texts.eventsTitle}
        </Heading>
        <Text fontSize="sm" color="fg.muted">
          {texts.eventsIntro}
        </Text>
        <Stack as="ul" gap="2" listStyleType="none" data-testid="webhook-event-types">
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <Box as="li" key={type} borderWidth="1px" borderRadius="md" px="3" py="2">
              <Text fontFamily="mono" fontWeight="semibold" fontSize="sm">
                {type}
              </Text>
              <Text fontSize="sm" color="fg.muted">
                {WEBHOOK_EVENT_DESCRIPTIONS[type]}
              </Text>
            </Box>
          ))}
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}
