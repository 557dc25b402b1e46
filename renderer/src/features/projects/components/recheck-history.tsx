import { Badge, Card, List, Text } from '@chakra-ui/react';
import type { Recheck } from '@common/rechecks';
import { formatEventTime } from '../../../ui/relative-date';
import { historyTexts } from '../history-texts';
import { useProjectRechecks } from '../hooks/use-project-rechecks';
import { PagedList } from './paged-list';
import { texts } from '../texts';

const BADGE_PALETTE = { fixed: 'green', still_there: 'orange', unknown: 'gray' } as const;

/** The History tab's checks again: a row per answer (when, which finding, fixed or still there), newest first. */
export function RecheckHistory({ projectId }: { projectId: string }) {
  const query = useProjectRechecks(projectId);
  return (
    <Card.Root data-testid="recheck-history">
      <Card.Header>
        <Card.Title as="h2">{historyTexts.rechecksTitle}</Card.Title>
      </Card.Header>
      <Card.Body>
        <RecheckList query={query} />
      </Card.Body>
    </Card.Root>
  );
}

function RecheckList({ query }: { query: ReturnType<typeof useProjectRechecks> }) {
  return (
    <PagedList
      query={query}
      items={query.rechecks}
      skeletons={{ rows: 2, h: '10' }}
      texts={{ failed: historyTexts.rechecksFailed, empty: historyTexts.rechecksEmpty, label: historyTexts.rechecksTitle }}
      loadMoreTestId="recheck-history-load-more"
    >
      {(recheck) => <RecheckRow key={recheck.id} recheck={recheck} />}
    </PagedList>
  );
}

function RecheckRow({ recheck }: { recheck: Recheck }) {
  const status = recheck.status ?? 'unknown';
  return (
    <List.Item
      display="flex"
      flexWrap="wrap"
      alignItems="center"
      columnGap="3"
      rowGap="1"
      py="3"
      borderBottomWidth="1px"
      _last={{ borderBottomWidth: 0 }}
      data-testid="recheck-row"
    >
      <Text fontWeight="medium" minW={{ md: '36' }}>
        {formatEventTime(recheck.checked_at ?? recheck.created_at)}
      </Text>
      {/* On a phone the finding takes its own line under the date and the answer, rather than a column a word wide. */}
      <Text flex="1" flexBasis={{ base: '100%', md: '0' }} order={{ base: 1, md: 0 }} minW="0" overflowWrap="anywhere" data-testid="recheck-finding">
        {recheck.title}
      </Text>
      <Badge colorPalette={BADGE_PALETTE[status]} variant="subtle" data-testid="recheck-status">
        {texts.recheckBadge[status]}
      </Badge>
      {recheck.reason && (
        <Text fontSize="sm" color="fg.muted" flexBasis="100%" order={2}>
          {recheck.reason}
        </Text>
      )}
    </List.Item>
  );
}
