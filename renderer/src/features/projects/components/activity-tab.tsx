import { Badge, Card, EmptyState, HStack, Icon, Skeleton, Stack, Text, Timeline, VStack } from '@chakra-ui/react';
import type { Project } from '@common/projects';
import { Activity, AlertTriangle, FolderPlus, Play } from 'lucide-react';
import { ExternalLink } from '../../../ui/external-link';
import { formatEventTime, formatLongDate, formatRelativeDate } from '../../../ui/relative-date';
import { eventPalette } from '../../../ui/tones';
import { useAuth } from '../../auth/auth-context';
import { useProjectEvents } from '../hooks/use-project-events';

const ACTIVITY_SKELETONS = 3;

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
                    <Play />
                  </Timeline.Indicator>
                </Timeline.Connector>
                <Timeline.Content>
                  <Timeline.Title wordBreak="break-all">
                    {email} ran test
                  </Timeline.Title>
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
                  <FolderPlus />
                </Timeline.Indicator>
              </Timeline.Connector>
              <Timeline.Content>
                <Timeline.Title wordBreak="break-all">{email} created project</Timeline.Title>
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
  const { events, isPending, isError } = useProjectEvents(projectId);
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
  return (
    <Stack as="ul" gap="2" listStyleType="none" data-testid="activity-list">
      {events.map((event) => (
        <HStack
          as="li"
          key={event.id}
          align="start"
          gap="3"
          p="3"
          borderWidth="1px"
          borderRadius="l2"
          data-testid="activity-event"
        >
          <Icon boxSize="4" mt="1" color={`${eventPalette(event.event_name)}.fg`} aria-hidden="true">
            <Activity />
          </Icon>
          <Stack gap="1" flex="1" minW="0">
            <HStack justify="space-between" gap="2" wrap="wrap">
              <Badge colorPalette={eventPalette(event.event_name)} variant="subtle">
                {event.event_name}
              </Badge>
              <Text fontSize="xs" color="fg.muted">
                <time dateTime={event.timestamp}>{formatEventTime(event.timestamp)}</time>
              </Text>
            </HStack>
            {event.extra?.description && (
              <Text fontSize="sm" wordBreak="break-word">
                {event.extra.description}
              </Text>
            )}
            {event.url && (
              <ExternalLink href={event.url} fontSize="xs" color="fg.muted" wordBreak="break-all">
                {event.url}
              </ExternalLink>
            )}
          </Stack>
        </HStack>
      ))}
    </Stack>
  );
}
