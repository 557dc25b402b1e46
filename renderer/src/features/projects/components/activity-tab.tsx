import { Badge, Button, Card, EmptyState, HStack, Icon, Skeleton, Stack, Text, Timeline, VStack } from '@chakra-ui/react';
import type { Project } from '@common/projects';
import { Activity, AlertTriangle, FolderPlus, Play } from 'lucide-react';
import { useState } from 'react';
import { formatEventTime, formatLongDate, formatRelativeDate } from '../../../ui/relative-date';
import { eventLabel } from '../../../ui/event-label';
import { eventPalette } from '../../../ui/tones';
import { useAuth } from '../../../app/auth-context';
import { useProjectEvents } from '../hooks/use-project-events';

const ACTIVITY_SKELETONS = 3;
/** A scan records an event per request: show the newest first, a page at a time. */
const PAGE_SIZE = 20;

/** Activity: the project's timeline (created, last test) and its recorded events. */
export function ActivityTab({ project }: { project: Project }) {
  const { user } = useAuth();
  const email = user?.email ?? 'You';
  return (
    <Stack gap="6">
      <Card.Root>
        <Card.Header>
          <Card.Title as="h2">Project Timeline</Card.Title>
        </Card.Header>
        <Card.Body>
          <Timeline.Root size="md" data-testid="project-timeline">
            {project.last_test && (
              <Timeline.Item>
                <Timeline.Connector>
                  <Timeline.Separator />
                  <Timeline.Indicator bg="brand.solid" color="brand.contrast">
                    <Icon boxSize="3">
                      <Play />
                    </Icon>
                  </Timeline.Indicator>
                </Timeline.Connector>
                <Timeline.Content>
                  <Timeline.Title overflowWrap="anywhere">{email} ran test</Timeline.Title>
                  <Timeline.Description>
                    {formatLongDate(project.last_test)} · {formatRelativeDate(project.last_test)}
                  </Timeline.Description>
                </Timeline.Content>
              </Timeline.Item>
            )}
            <Timeline.Item>
              <Timeline.Connector>
                <Timeline.Separator />
                <Timeline.Indicator>
                  <Icon boxSize="3">
                    <FolderPlus />
                  </Icon>
                </Timeline.Indicator>
              </Timeline.Connector>
              <Timeline.Content>
                <Timeline.Title overflowWrap="anywhere">{email} created project</Timeline.Title>
                <Timeline.Description>
                  {formatLongDate(project.creation_date)} · {formatRelativeDate(project.creation_date)}
                </Timeline.Description>
              </Timeline.Content>
            </Timeline.Item>
          </Timeline.Root>
        </Card.Body>
      </Card.Root>

      <Card.Root>
        <Card.Header>
          <Card.Title as="h2">Recent Activity</Card.Title>
        </Card.Header>
        <Card.Body>
          <RecentActivity projectId={project.id} />
        </Card.Body>
      </Card.Root>
    </Stack>
  );
}

function RecentActivity({ projectId }: { projectId: string }) {
  const { events, isPending, isError, hasNextPage, isFetchingNextPage, fetchNextPage } = useProjectEvents(projectId);
  const [visible, setVisible] = useState(PAGE_SIZE);
  if (isPending) {
    return (
      <Stack gap="3" aria-busy="true" data-testid="activity-loading">
        {Array.from({ length: ACTIVITY_SKELETONS }, (_, i) => (
          <Skeleton key={i} h="14" borderRadius="l2" />
        ))}
      </Stack>
    );
  }
  if (isError) {
    return (
      <EmptyState.Root size="sm" data-testid="activity-error">
        <EmptyState.Content>
          <EmptyState.Indicator color="severity.critical.fg">
            <AlertTriangle />
          </EmptyState.Indicator>
          <VStack textAlign="center">
            <EmptyState.Title>Failed to load activity</EmptyState.Title>
            <EmptyState.Description>There was an error loading project events</EmptyState.Description>
          </VStack>
        </EmptyState.Content>
      </EmptyState.Root>
    );
  }
  if (events.length === 0) {
    return (
      <EmptyState.Root size="sm" data-testid="activity-empty">
        <EmptyState.Content>
          <EmptyState.Indicator>
            <Activity />
          </EmptyState.Indicator>
          <VStack textAlign="center">
            <EmptyState.Title>No activity recorded yet</EmptyState.Title>
            <EmptyState.Description>Events will appear here once testing begins</EmptyState.Description>
          </VStack>
        </EmptyState.Content>
      </EmptyState.Root>
    );
  }
  const shown = events.slice(0, visible);
  return (
    <Stack gap="3">
      <Stack as="ul" gap="0" listStyleType="none" borderWidth="1px" borderRadius="l2" data-testid="activity-list">
        {shown.map((event, index) => (
          <Stack as="li" key={event.id} gap="1" px="3" py="2.5" borderTopWidth={index === 0 ? '0' : '1px'} data-testid="activity-event">
            <HStack justify="space-between" gap="3">
              <Badge colorPalette={eventPalette(event.event_name)} variant="subtle">
                {eventLabel(event.event_name)}
              </Badge>
              <Text fontSize="xs" color="fg.muted" flexShrink="0">
                <time dateTime={event.timestamp}>{formatEventTime(event.timestamp)}</time>
              </Text>
            </HStack>
            <Text fontSize="sm" wordBreak="break-word">
              {event.extra?.description ?? event.event_name}
            </Text>
            {event.url && (
              <Text fontSize="xs" color="fg.muted" truncate title={event.url}>
                {event.url}
              </Text>
            )}
          </Stack>
        ))}
      </Stack>
      {(events.length > visible || hasNextPage) && (
        <Button
          variant="outline"
          size="sm"
          alignSelf="center"
          loading={isFetchingNextPage}
          onClick={() => {
            // Past the loaded events, the next page comes from the server.
            if (visible + PAGE_SIZE > events.length && hasNextPage) void fetchNextPage();
            setVisible((n) => n + PAGE_SIZE);
          }}
        >
          {hasNextPage ? 'Show more' : `Show more (${events.length - visible} more)`}
        </Button>
      )}
    </Stack>
  );
}
