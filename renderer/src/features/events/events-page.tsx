import { Badge, Box, Button, Card, EmptyState, Flex, HStack, Input, InputGroup, Skeleton, Stack, Table, Text, VStack, useMediaQuery } from '@chakra-ui/react';
import type { ProjectEvent } from '@common/projects';
import { Activity, RefreshCw, Search, SearchX, X } from 'lucide-react';
import { useDeferredValue, useMemo, useState } from 'react';
import { LoadErrorCard } from '../../ui/load-error-card';
import { PageHeading } from '../../ui/page-heading';
import { eventPalette } from '../../ui/tones';
import { NO_EVENT_FILTERS, eventDescription, eventLabel, filterEvents, filterParams, formatEventTime } from './event-rows';
import { EventFilters } from './event-filters';
import { LoadMore } from '../../ui/load-more';
import { EVENTS_ERRORS, useRecentEvents } from './use-recent-events';
import { plural } from '@common/plural';

/** /dashboard/events: the 30 most recent events, searchable, older ones on demand; new ones arrive live. */
export function EventsPage() {
  const [filters, setFilters] = useState(NO_EVENT_FILTERS);
  const filtered = Object.keys(filterParams(filters)).length > 0;
  const events = useRecentEvents(filters);
  const [search, setSearch] = useState('');
  const deferredSearch = useDeferredValue(search);
  const rows = useMemo(() => filterEvents(events.data ?? [], deferredSearch), [events.data, deferredSearch]);
  // md is 48em (768 px), the spec's mobile breakpoint: below it each event is a card instead of a table row.
  const [wide = true] = useMediaQuery(['(min-width: 48em)']);

  if (events.isError && !events.data) {
    return (
      <Box>
        <PageHeading title="Events" />
        <EventsError message={events.error.message} />
      </Box>
    );
  }

  return (
    <Box>
      <PageHeading title="Events" subtitle="Recent activity across your projects" />
      <Flex gap="3" mb="4" direction={{ base: 'column', sm: 'row' }} align={{ sm: 'center' }}>
        <InputGroup flex="1" startElement={<Search size={16} aria-hidden />}>
          <Input type="search" aria-label="Search events" placeholder="Search by event, URL or description" value={search} onChange={(e) => setSearch(e.target.value)} bg="bg" />
        </InputGroup>
        <HStack gap="2">
          {search && (
            <Button variant="outline" bg="bg" onClick={() => setSearch('')}>
              <X aria-hidden /> Clear Search
            </Button>
          )}
          <Button
            variant="outline"
            bg="bg"
            onClick={() => void events.refetch()}
            loading={events.isFetching && !events.isLoading}
            loadingText="Refresh"
            disabled={events.isLoading}
          >
            <RefreshCw aria-hidden /> Refresh
          </Button>
        </HStack>
      </Flex>
      <EventFilters value={filters} onChange={setFilters} />

      <Card.Root variant="outline" overflow="hidden">
        {events.isLoading ? (
          <LoadingRows />
        ) : (events.data ?? []).length === 0 ? (
          <EmptyState.Root>
            <EmptyState.Content>
              <EmptyState.Indicator>
                <Activity />
              </EmptyState.Indicator>
              <VStack textAlign="center">
                <EmptyState.Title>No events found</EmptyState.Title>
                <EmptyState.Description>{filtered ? 'No event matches these filters' : 'Events will appear here once testing begins'}</EmptyState.Description>
              </VStack>
            </EmptyState.Content>
          </EmptyState.Root>
        ) : rows.length === 0 ? (
          <EmptyState.Root>
            <EmptyState.Content>
              <EmptyState.Indicator>
                <SearchX />
              </EmptyState.Indicator>
              <VStack textAlign="center">
                <EmptyState.Title>No matching events</EmptyState.Title>
                <EmptyState.Description>No event name, URL or description contains “{search.trim()}”.</EmptyState.Description>
              </VStack>
            </EmptyState.Content>
          </EmptyState.Root>
        ) : wide ? (
          <EventsTable rows={rows} />
        ) : (
          <EventsList rows={rows} />
        )}
      </Card.Root>
      {events.data && events.data.length > 0 && (
        <Text mt="2" fontSize="sm" color="fg.muted" aria-live="polite">
          {rows.length === events.data.length ? `${plural(events.data.length, 'recent event')}` : `${rows.length} of ${events.data.length} events`}
        </Text>
      )}
      <Flex justify="center" mt="3">
        <LoadMore query={events} label="Load older events" testId="load-more-events" />
      </Flex>
    </Box>
  );
}

function EventBadge({ name }: { name: string }) {
  return (
    <Badge colorPalette={eventPalette(name)} variant="subtle" size="md" data-kind={name} whiteSpace="nowrap">
      {eventLabel(name)}
    </Badge>
  );
}

function EventsTable({ rows }: { rows: ProjectEvent[] }) {
  return (
    <Table.ScrollArea>
      <Table.Root size="sm" aria-label="Recent events" css={{ '& td, & th': { px: '4' } }}>
        <Table.Header>
          <Table.Row bg="bg.muted">
            <Table.ColumnHeader w="10rem">Event Type</Table.ColumnHeader>
            <Table.ColumnHeader>Description</Table.ColumnHeader>
            <Table.ColumnHeader>URL</Table.ColumnHeader>
            <Table.ColumnHeader w="9.5rem">Time</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {rows.map((event) => (
            <Table.Row key={event.id} data-testid="event-row">
              <Table.Cell>
                <EventBadge name={event.event_name} />
              </Table.Cell>
              <Table.Cell maxW="24rem">
                <Text lineClamp={2}>
                  {eventDescription(event) || (
                    <Text as="span" color="fg.subtle">
                      No description
                    </Text>
                  )}
                </Text>
              </Table.Cell>
              <Table.Cell maxW="22rem">
                <Text truncate title={event.url} fontFamily="mono" fontSize="xs" color="fg.muted">
                  {event.url}
                </Text>
              </Table.Cell>
              <Table.Cell whiteSpace="nowrap" color="fg.muted">
                <time dateTime={event.timestamp}>{formatEventTime(event.timestamp)}</time>
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}

/** The narrow-screen layout: one card per event with the same four fields. */
function EventsList({ rows }: { rows: ProjectEvent[] }) {
  return (
    <Stack as="ul" aria-label="Recent events" gap="0" listStyleType="none" m="0" p="0">
      {rows.map((event) => (
        <Stack as="li" key={event.id} data-testid="event-row" gap="1.5" px="4" py="3" borderBottomWidth="1px" _last={{ borderBottomWidth: 0 }}>
          <HStack justify="space-between" gap="2">
            <EventBadge name={event.event_name} />
            <Text fontSize="xs" color="fg.muted" whiteSpace="nowrap">
              <time dateTime={event.timestamp}>{formatEventTime(event.timestamp)}</time>
            </Text>
          </HStack>
          {eventDescription(event) && <Text fontSize="sm">{eventDescription(event)}</Text>}
          <Text fontFamily="mono" fontSize="xs" color="fg.muted" wordBreak="break-all">
            {event.url}
          </Text>
        </Stack>
      ))}
    </Stack>
  );
}

function LoadingRows() {
  return (
    <Stack gap="3" p="4" aria-busy="true" aria-label="Loading events">
      {Array.from({ length: 6 }, (_, index) => (
        <HStack key={index} gap="4">
          <Skeleton h="5" w="24" />
          <Skeleton h="4" flex="2" />
          <Skeleton h="4" flex="2" hideBelow="md" />
          <Skeleton h="4" w="24" />
        </HStack>
      ))}
    </Stack>
  );
}

/** The spec's error view: 'Failed to load events' and Try Again, which reloads the page. */
function EventsError({ message }: { message: string }) {
  return <LoadErrorCard problem={EVENTS_ERRORS.response} reason={message} actionLabel="Try Again" onAction={() => window.location.reload()} />;
}
