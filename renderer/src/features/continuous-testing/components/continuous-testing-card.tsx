import { Button, Card, Flex, Heading, Stack, Text } from '@chakra-ui/react';
import { RefreshCw } from 'lucide-react';
import { Link as RouterLink } from 'react-router-dom';
import { texts } from '../texts';

/** The way in from a project's Overview: the page opens on this project. */
export function ContinuousTestingCard({ projectId }: { projectId: string }) {
  return (
    <Card.Root variant="outline" data-testid="continuous-testing-card">
      <Card.Body>
        <Flex gap="4" justify="space-between" align={{ base: 'stretch', sm: 'center' }} direction={{ base: 'column', sm: 'row' }}>
          <Stack gap="1" minW="0">
            <Heading as="h2" size="md">
              {texts.cardTitle}
            </Heading>
            <Text fontSize="sm" color="fg.muted">
              {texts.cardHint}
            </Text>
          </Stack>
          <Button variant="outline" colorPalette="brand" asChild flexShrink={0}>
            <RouterLink to={`/dashboard/continuous-testing?project=${encodeURIComponent(projectId)}`}>
              <RefreshCw aria-hidden /> {texts.cardAction}
            </RouterLink>
          </Button>
        </Flex>
      </Card.Body>
    </Card.Root>
  );
}
