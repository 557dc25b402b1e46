import { Accordion, Alert, Badge, Card, Field, Heading, HStack, Link, List, NativeSelect, SimpleGrid, Skeleton, Stack, Text } from '@chakra-ui/react';
import { plural } from '@common/plural';
import { findingTally, tallyText } from '@common/scan';
import { SCAN_TRIGGER_LABELS, type DiffFinding, type ScanDiffResponse, type ScanHistoryItem } from '@common/scan-history';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { formatEventTime } from '../../../ui/relative-date';
import { historyTexts, SCAN_STATE_WORDS } from '../history-texts';
import { useScanDiff } from '../hooks/use-scan-diff';
import { useScanHistory } from '../hooks/use-scan-history';
import { RecheckHistory } from './recheck-history';
import { GradeBadge } from '../../../ui/badges';
import { FindingList } from './finding-list';
import { PagedList } from './paged-list';

/** The project's History tab: every scan (date, what started it, grade, counts) and what changed between two. */
export function HistoryTab({ projectId }: { projectId: string }) {
  const history = useScanHistory(projectId);
  const completed = history.scans.filter((scan) => scan.state === 'completed');
  // Unchosen: the latest completed scan against the one before it (and again when a newer one completes).
  const [chosen, setChosen] = useState<{ from: string | null; to: string | null }>({ from: null, to: null });
  const to = chosen.to ?? completed[0]?.id ?? null;
  const from = chosen.from ?? completed[completed.findIndex((scan) => scan.id === to) + 1]?.id ?? null;

  return (
    <Stack gap="6">
      <Card.Root data-testid="scan-history">
        <Card.Header>
          <Card.Title as="h2">{historyTexts.listTitle}</Card.Title>
        </Card.Header>
        <Card.Body>
          <HistoryList query={history} />
        </Card.Body>
      </Card.Root>
      <RecheckHistory projectId={projectId} />
      {completed.length > 0 && (
        <Card.Root data-testid="scan-diff">
          <Card.Header>
            <Card.Title as="h2">{historyTexts.diffTitle}</Card.Title>
          </Card.Header>
          <Card.Body>
            <Stack gap="5">
              <SimpleGrid columns={{ base: 1, md: 2 }} gap="3">
                <ScanPicker label={historyTexts.from} scans={completed} value={from} onChange={(id) => setChosen({ from: id, to })} testId="diff-from" />
                <ScanPicker label={historyTexts.to} scans={completed} value={to} onChange={(id) => setChosen({ from, to: id })} testId="diff-to" />
              </SimpleGrid>
              {completed.length < 2 ? <Text color="fg.muted">{historyTexts.oneCompleted}</Text> : <DiffView projectId={projectId} from={from} to={to} />}
            </Stack>
          </Card.Body>
        </Card.Root>
      )}
    </Stack>
  );
}

function HistoryList({ query }: { query: ReturnType<typeof useScanHistory> }) {
  return (
    <PagedList
      query={query}
      items={query.scans}
      skeletons={{ rows: 3, h: '12' }}
      texts={{ failed: historyTexts.loadFailed, empty: historyTexts.empty, label: historyTexts.listTitle }}
      loadMoreTestId="history-load-more"
    >
      {(scan) => <HistoryRow key={scan.id} scan={scan} />}
    </PagedList>
  );
}

function HistoryRow({ scan }: { scan: ScanHistoryItem }) {
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
      data-testid="history-row"
    >
      <Text fontWeight="medium" minW={{ md: '36' }}>
        {formatEventTime(scan.finished_at ?? scan.queued_at)}
      </Text>
      <Badge variant="outline" data-testid="history-trigger">
        {SCAN_TRIGGER_LABELS[scan.trigger]}
      </Badge>
      {scan.state === 'completed' && scan.grade ? (
        <GradeBadge grade={scan.grade} label="Scan grade" />
      ) : (
        <Badge variant="subtle" colorPalette={scan.state === 'failed' ? 'red' : 'gray'}>
          {SCAN_STATE_WORDS[scan.state]}
        </Badge>
      )}
      <Text fontSize="sm" color="fg.muted" data-testid="history-tally">
        {scan.counts ? tallyText(findingTally(scan.counts)) : (scan.error ?? '')}
      </Text>
      {scan.report_id && (
        <Link asChild fontSize="sm" colorPalette="brand" ms={{ md: 'auto' }}>
          {/* The Reports page opens a report named by ?open= (as the desktop app's report links do). */}
          <RouterLink to={`/dashboard/reports?open=${encodeURIComponent(scan.report_id)}`} data-testid="history-report">
            {historyTexts.openReport}
          </RouterLink>
        </Link>
      )}
    </List.Item>
  );
}

function ScanPicker({ label, scans, value, onChange, testId }: { label: string; scans: ScanHistoryItem[]; value: string | null; onChange: (id: string) => void; testId: string }) {
  return (
    <Field.Root>
      <Field.Label>{label}</Field.Label>
      <NativeSelect.Root>
        <NativeSelect.Field value={value ?? ''} onChange={(event) => onChange(event.currentTarget.value)} data-testid={testId}>
          {scans.map((scan) => (
            <option key={scan.id} value={scan.id}>
              {`${formatEventTime(scan.finished_at ?? scan.queued_at)} · ${SCAN_TRIGGER_LABELS[scan.trigger]} · ${scan.grade ?? ''}`}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </Field.Root>
  );
}

function DiffView({ projectId, from, to }: { projectId: string; from: string | null; to: string | null }) {
  const same = from !== null && from === to;
  const diff = useScanDiff(projectId, from, to, !same);
  if (same) return <Text color="fg.muted">{historyTexts.sameScan}</Text>;
  if (diff.isPending) return <Skeleton h="24" aria-busy="true" />;
  if (diff.isError) {
    return (
      <Alert.Root status="error">
        <Alert.Indicator />
        <Alert.Title>{historyTexts.diffFailed}</Alert.Title>
        <Alert.Description>{diff.error.message}</Alert.Description>
      </Alert.Root>
    );
  }
  const { counts } = diff.data;
  return (
    <Stack gap="5" data-testid="diff-result">
      <HStack gap="2" wrap="wrap" aria-label="Changes between the two scans">
        <Badge colorPalette="red" variant="subtle" size="lg" data-testid="diff-count-new">
          {historyTexts.newTitle}: {counts.new}
        </Badge>
        <Badge colorPalette="green" variant="subtle" size="lg" data-testid="diff-count-fixed">
          {historyTexts.fixedTitle}: {counts.fixed}
        </Badge>
        <Badge variant="subtle" size="lg" data-testid="diff-count-unchanged">
          {historyTexts.unchangedTitle}: {counts.unchanged}
        </Badge>
      </HStack>
      <DiffList title={historyTexts.newTitle} findings={diff.data.new} total={counts.new} none={historyTexts.noneNew} testId="diff-new" />
      <DiffList title={historyTexts.fixedTitle} findings={diff.data.fixed} total={counts.fixed} none={historyTexts.noneFixed} testId="diff-fixed" struck />
      <UnchangedList diff={diff.data} />
    </Stack>
  );
}

function DiffList({
  title,
  findings,
  total,
  none,
  testId,
  struck = false,
}: {
  title: string;
  findings: DiffFinding[];
  total: number;
  none: string;
  testId: string;
  struck?: boolean;
}) {
  return (
    <Stack gap="2" as="section" aria-label={title} data-testid={testId}>
      <Heading as="h3" size="sm">
        {title} ({total})
      </Heading>
      {findings.length === 0 ? <Text color="fg.muted">{none}</Text> : <FindingList findings={findings} struck={struck} itemTestId="diff-finding" />}
      {findings.length < total && (
        <Text fontSize="xs" color="fg.muted">
          {historyTexts.moreListed(findings.length, total)}
        </Text>
      )}
    </Stack>
  );
}

/** Unchanged findings fold away: they are the long, familiar part. */
function UnchangedList({ diff }: { diff: ScanDiffResponse }) {
  const total = diff.counts.unchanged;
  if (total === 0) return <Text color="fg.muted">{historyTexts.noneUnchanged}</Text>;
  return (
    <Accordion.Root collapsible variant="enclosed" size="sm" data-testid="diff-unchanged">
      <Accordion.Item value="unchanged">
        <Accordion.ItemTrigger cursor="pointer">
          <Heading as="h3" size="sm" flex="1">
            {historyTexts.unchangedTitle} ({plural(total, 'finding')})
          </Heading>
          <Accordion.ItemIndicator />
        </Accordion.ItemTrigger>
        <Accordion.ItemContent>
          <Accordion.ItemBody>
            <FindingList findings={diff.unchanged} itemTestId="diff-finding" />
            {diff.unchanged.length < total && (
              <Text fontSize="xs" color="fg.muted">
                {historyTexts.moreListed(diff.unchanged.length, total)}
              </Text>
            )}
          </Accordion.ItemBody>
        </Accordion.ItemContent>
      </Accordion.Item>
    </Accordion.Root>
  );
}
