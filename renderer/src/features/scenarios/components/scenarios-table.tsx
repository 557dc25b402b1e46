import { Box, Code, HStack, Stack, Table, Text, useMediaQuery } from '@chakra-ui/react';
import { shortScenarioId, type ScenarioView } from '@common/scenarios';
import { formatRelativeDate } from '../../../ui/relative-date';
import { ScenarioRowActions, type RowAction } from './scenario-row-actions';
import { ScenarioStatusBadge } from './scenario-status-badge';
import { nounFor } from '@common/plural';

export interface ScenarioRowsProps {
  rows: ScenarioView[];
  /** The scenario whose single run is being started, or null. */
  startingId: string | null;
  /** True while any single run is starting, queued or running: one single run at a time (spec section 4). */
  runLocked: boolean;
  onRun: (id: string) => void;
  onAction: (id: string, action: RowAction) => void;
}

const lastRunText = (view: ScenarioView) => (view.lastRun ? formatRelativeDate(view.lastRun) : 'Never');

/** The scenarios as a table, or one card each below 768 px (the spec's mobile breakpoint). */
export function ScenarioRows(props: ScenarioRowsProps) {
  const [wide = true] = useMediaQuery(['(min-width: 48em)']);
  return wide ? <ScenariosTable {...props} /> : <ScenariosList {...props} />;
}

function actionsOf(view: ScenarioView, { startingId, runLocked, onRun, onAction }: ScenarioRowsProps) {
  const active = view.status === 'Queued' || view.status === 'Running';
  return (
    <ScenarioRowActions
      view={view}
      running={startingId === view.id || active}
      runDisabled={runLocked}
      onRun={() => onRun(view.id)}
      onAction={(action) => onAction(view.id, action)}
    />
  );
}

function ScenariosTable(props: ScenarioRowsProps) {
  return (
    <Table.ScrollArea>
      <Table.Root size="sm" aria-label="Test scenarios" css={{ '& td, & th': { px: '4' } }}>
        <Table.Header>
          <Table.Row bg="bg.muted">
            <Table.ColumnHeader>Scenario</Table.ColumnHeader>
            <Table.ColumnHeader>Path</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Steps</Table.ColumnHeader>
            <Table.ColumnHeader>Status</Table.ColumnHeader>
            <Table.ColumnHeader>Last Run</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Actions</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {props.rows.map((view) => (
            <Table.Row key={view.id} data-testid="scenario-row" data-id={view.id}>
              <Table.Cell maxW="22rem">
                <Text fontWeight="medium" lineClamp={2} wordBreak="break-word">
                  {view.name}
                </Text>
                <Code size="sm" variant="plain" color="fg.muted" px="0" data-testid="scenario-short-id">
                  {shortScenarioId(view.id)}
                </Code>
              </Table.Cell>
              <Table.Cell maxW="18rem">
                <Text truncate title={view.url} fontFamily="mono" fontSize="xs" color="fg.muted">
                  {view.url}
                </Text>
              </Table.Cell>
              <Table.Cell textAlign="end" data-testid="scenario-steps">
                {view.steps}
              </Table.Cell>
              <Table.Cell>
                <ScenarioStatusBadge status={view.status} />
              </Table.Cell>
              <Table.Cell whiteSpace="nowrap" color="fg.muted">
                {view.lastRun ? <time dateTime={view.lastRun}>{lastRunText(view)}</time> : lastRunText(view)}
              </Table.Cell>
              <Table.Cell>{actionsOf(view, props)}</Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}

/** The narrow-screen layout: one card per scenario with the same fields. */
function ScenariosList(props: ScenarioRowsProps) {
  return (
    <Stack as="ul" aria-label="Test scenarios" gap="0" listStyleType="none" m="0" p="0">
      {props.rows.map((view) => (
        <Stack as="li" key={view.id} data-testid="scenario-row" data-id={view.id} gap="2" px="4" py="3" borderBottomWidth="1px" _last={{ borderBottomWidth: 0 }}>
          <HStack justify="space-between" align="start" gap="2">
            <Stack gap="0" minW="0">
              <Text fontWeight="medium" wordBreak="break-word">
                {view.name}
              </Text>
              <Code size="sm" variant="plain" color="fg.muted" px="0" alignSelf="start" data-testid="scenario-short-id">
                {shortScenarioId(view.id)}
              </Code>
            </Stack>
            <ScenarioStatusBadge status={view.status} />
          </HStack>
          <Text fontFamily="mono" fontSize="xs" color="fg.muted" wordBreak="break-all">
            {view.url}
          </Text>
          <HStack justify="space-between" gap="2" wrap="wrap">
            <Text fontSize="sm" color="fg.muted">
              <span data-testid="scenario-steps">{view.steps}</span> {nounFor(view.steps, 'step')} · Last run {lastRunText(view)}
            </Text>
            <Box ml="auto">{actionsOf(view, props)}</Box>
          </HStack>
        </Stack>
      ))}
    </Stack>
  );
}
