import { Alert, Button, Card, Heading, Stack, Text } from '@chakra-ui/react';
import type { CreatedWebhook } from '@common/webhooks';
import { CodeBlock } from '../../../ui/code-block';
import { texts, VERIFY_SNIPPET } from '../texts';

/** After a save: the webhook's signing secret, this once, and how a receiver verifies deliveries with it. */
export function SecretPanel({ webhook, onDismiss }: { webhook: CreatedWebhook; onDismiss: () => void }) {
  return (
    <Card.Root variant="outline" borderColor="orange.muted" data-testid="webhook-secret-panel">
      <Card.Body gap="4">
        <Stack gap="1">
          <Heading as="h2" size="md">
            {texts.secretTitle}
          </Heading>
          <Text fontSize="sm" color="fg.muted" wordBreak="break-all">
            {webhook.url}
          </Text>
        </Stack>
        <CodeBlock code={webhook.secret} copyLabel="Copy signing secret" testId="webhook-secret" />
        <Alert.Root status="warning">
          <Alert.Indicator />
          <Alert.Description>{texts.secretWarning}</Alert.Description>
        </Alert.Root>
        <Heading as="h3" size="sm">
          {texts.verifyTitle}
        </Heading>
        <Text fontSize="sm">{texts.verifyIntro}</Text>
        <CodeBlock code={VERIFY_SNIPPET} label="JavaScript" copyLabel="Copy verification example" />
        <Button alignSelf="start" colorPalette="brand" onClick={onDismiss}>
          {texts.dismissSecret}
        </Button>
      </Card.Body>
    </Card.Root>
  );
}
