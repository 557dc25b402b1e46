import { Card, HStack, Progress, Stack, Text } from '@chakra-ui/react';
import type { Workspace } from '@common/workspaces';
import { texts } from '../texts';

/** Seats in use (members and open invitations) against the plan's limit. */
export function SeatsSummary({ workspace }: { workspace: Workspace }) {
  const { used, limit } = workspace.seats;
  return (
    <Card.Root variant="outline">
      <Card.Body>
        <Stack gap="2">
          <HStack justify="space-between" gap="3" flexWrap="wrap">
            <Text fontWeight="semibold">{texts.seats}</Text>
            <Text data-testid="seats-used">{texts.seatsUsed(used, limit)}</Text>
          </HStack>
          {limit !== null && (
            <Progress.Root value={Math.min(used, limit)} max={limit} size="sm" colorPalette={used >= limit ? 'orange' : 'brand'} aria-label={texts.seats}>
              <Progress.Track>
                <Progress.Range />
              </Progress.Track>
            </Progress.Root>
          )}
          <Text fontSize="sm" color="fg.muted">
            {texts.seatsHint}
          </Text>
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}
