import { Alert, Badge, Box, Button, HStack, Heading, Image, List, Skeleton, Spinner, Stack, Table, Text } from '@chakra-ui/react';
import { shortScenarioId, toScenarioView, type ScenarioDetail, type ScenarioRun, type StepResult } from '@common/scenarios';
import { Download } from 'lucide-react';
import { useState } from 'react';
import { PanelDialog } from '../../../ui/panel-dialog';
import { formatEventTime } from '../../../ui/relative-date';
import { notify } from '../../../ui/toaster';
import { describeActions, formatDuration } from '../scenario-format';
import { saveBlob } from '../../../ui/save-blob';
import { useFetchArtifact, useScreenshotUrl } from '../hooks/use-run-artifact';
import { useScenario } from '../hooks/use-scenario';
import { texts } from '../texts';
import { ScenarioStatusBadge } from './scenario-status-badge';

const STEP_PALETTE: Record<StepResult['status'], string> = { passed: 'status.active', failed: 'severity.critical', skipped: 'gray' };
const RUN_LABEL: Record<ScenarioRun['status'], 'Queued' | 'Running' | 'Passed' | 'Failed'> = { queued: 'Queued', running: 'Running', passed: 'Passed', failed: 'Failed' };

/** View Details: the steps with their last result, the failure, the screenshot, what the page logged, the run history. */
export function ScenarioDetailsDialog({ id, onClose }: { id: string | null; onClose: () => void }) {
  const scenario = useScenario(id);
  const detail = scenario.data;
  return (
    <PanelDialog
      open={id !== null}
      onClose={onClose}
      title={detail ? toScenarioView(detail).name : 'Scenario details'}
      subtitle={
        detail && (
          <HStack gap="2" wrap="wrap" fontSize="sm" color="fg.muted">
            <ScenarioStatusBadge status={toScenarioView(detail).status} />
            <Text as="span" fontFamily="mono">
              {shortScenarioId(detail.id)}
            </Text>
            <Text as="span" wordBreak="break-all">
              {detail.website}
            </Text>
          </HStack>
        )
      }
    >
      {scenario.isLoading ? (
        <Stack gap="3" aria-busy="true" aria-label="Loading scenario">
          <Skeleton h="5" />
          <Skeleton h="5" />
          <Skeleton h="40" />
        </Stack>
      ) : scenario.isError || !detail ? (
        <Alert.Root status="error">
          <Alert.Indicator />
          <Alert.Title>{scenario.error?.message ?? 'Failed to fetch scenario'}</Alert.Title>
        </Alert.Root>
      ) : (
        <DetailBody detail={detail} />
      )}
    </PanelDialog>
  );
}

function DetailBody({ detail }: { detail: ScenarioDetail }) {
  const run = detail.runs[0] ?? null;
  return (
    <Stack gap="6">
      <StepsSection actions={detail.actions} run={run} />
      {run && (run.status === 'queued' || run.status === 'running') && (
        <HStack gap="2" color="fg.muted" role="status">
          <Spinner size="sm" /> <Text>{run.status === 'queued' ? 'Waiting for a browser…' : 'Running in Chromium…'}</Text>
        </HStack>
      )}
      {run?.status === 'failed' && run.error && (
        <Alert.Root status="error" data-testid="run-error">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{run.failed_step !== null ? `Step ${run.failed_step + 1} failed` : 'The run failed'}</Alert.Title>
            <Alert.Description whiteSpace="pre-wrap" wordBreak="break-word">
              {run.error}
            </Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}
      {run?.screenshot_url && <Screenshot path={run.screenshot_url} failed={run.status === 'failed'} />}
      {run && <PageProblems run={run} />}
      {run?.trace_url && <TraceDownload path={run.trace_url} name={`trace-${shortScenarioId(detail.id)}-${shortScenarioId(run.id)}.zip`} />}
      <RunHistory runs={detail.runs} />
    </Stack>
  );
}

function StepsSection({ actions, run }: { actions: string; run: ScenarioRun | null }) {
  const steps = describeActions(actions);
  const results = new Map((run?.steps ?? []).map((step) => [step.index, step]));
  return (
    <Stack gap="2" as="section" aria-labelledby="scenario-steps-heading">
      <Heading as="h3" size="sm" id="scenario-steps-heading">
        Steps
      </Heading>
      <List.Root as="ol" gap="1.5" ps="0" listStyleType="none">
        {steps.map((text, index) => {
          const result = results.get(index);
          const failed = run?.failed_step === index;
          return (
            <List.Item
              key={index}
              data-testid="scenario-step"
              data-status={result?.status ?? 'none'}
              display="flex"
              gap="3"
              alignItems="start"
              p="2"
              borderRadius="l2"
              bg={failed ? 'bg.error' : undefined}
            >
              <Text as="span" color="fg.muted" fontFamily="mono" fontSize="sm" minW="6" textAlign="end">
                {index + 1}.
              </Text>
              <Stack gap="0.5" flex="1" minW="0">
                <Text fontSize="sm" wordBreak="break-word">
                  {text}
                </Text>
                {failed && result?.error && (
                  <Text fontSize="xs" color="fg.error" whiteSpace="pre-wrap" wordBreak="break-word">
                    {result.error}
                  </Text>
                )}
              </Stack>
              {result && (
                <HStack gap="1.5" flexShrink="0">
                  <Badge colorPalette={STEP_PALETTE[result.status]} variant={result.status === 'skipped' ? 'subtle' : 'solid'} textTransform="capitalize">
                    {result.status}
                  </Badge>
                  {result.status !== 'skipped' && (
                    <Text as="span" fontSize="xs" color="fg.muted" whiteSpace="nowrap">
                      {formatDuration(result.duration_ms)}
                    </Text>
                  )}
                </HStack>
              )}
            </List.Item>
          );
        })}
      </List.Root>
    </Stack>
  );
}

function Screenshot({ path, failed }: { path: string; failed: boolean }) {
  const screenshot = useScreenshotUrl(path);
  const label = failed ? 'Screenshot at the failure' : 'Screenshot at the end of the run';
  return (
    <Stack gap="2" as="section">
      <Heading as="h3" size="sm">
        {label}
      </Heading>
      {screenshot.url ? (
        <Image src={screenshot.url} alt={label} data-testid="run-screenshot" borderWidth="1px" borderRadius="l2" w="full" h="auto" />
      ) : screenshot.isError ? (
        <Text fontSize="sm" color="fg.muted">
          The screenshot could not be loaded.
        </Text>
      ) : (
        <Skeleton h="48" />
      )}
    </Stack>
  );
}

function PageProblems({ run }: { run: ScenarioRun }) {
  if (run.console_errors.length === 0 && run.failed_requests.length === 0) return null;
  return (
    <Stack gap="2" as="section">
      <Heading as="h3" size="sm">
        Console errors and failed requests
      </Heading>
      <List.Root gap="1" fontSize="xs" fontFamily="mono" ps="4">
        {run.console_errors.map((message, index) => (
          <List.Item key={`c${index}`} wordBreak="break-word">
            {message}
          </List.Item>
        ))}
        {run.failed_requests.map((request, index) => (
          <List.Item key={`r${index}`} wordBreak="break-all">
            {request.method} {request.url} — {request.failure}
          </List.Item>
        ))}
      </List.Root>
    </Stack>
  );
}

function TraceDownload({ path, name }: { path: string; name: string }) {
  const fetchArtifact = useFetchArtifact();
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      saveBlob(await fetchArtifact(path), name);
    } catch (error) {
      notify.error('Could not download the trace', error instanceof Error ? error.message : undefined);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap="1" align="start">
      <Button variant="outline" size="sm" onClick={() => void download()} loading={busy}>
        <Download aria-hidden /> Download trace
      </Button>
      <Text fontSize="xs" color="fg.muted">
        {texts.traceHint.replace('<file>', name)}
      </Text>
    </Stack>
  );
}

function RunHistory({ runs }: { runs: ScenarioRun[] }) {
  return (
    <Stack gap="2" as="section">
      <Heading as="h3" size="sm">
        Run history
      </Heading>
      {runs.length === 0 ? (
        <Text fontSize="sm" color="fg.muted">
          This scenario has not run yet.
        </Text>
      ) : (
        <Box overflowX="auto">
          <Table.Root size="sm" aria-label="Run history">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>Status</Table.ColumnHeader>
                <Table.ColumnHeader>When</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">Duration</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {runs.map((run) => (
                <Table.Row key={run.id} data-testid="run-history-row">
                  <Table.Cell>
                    <ScenarioStatusBadge status={RUN_LABEL[run.status]} />
                  </Table.Cell>
                  <Table.Cell whiteSpace="nowrap">{formatEventTime(run.started_at ?? run.created_at)}</Table.Cell>
                  <Table.Cell textAlign="end">{formatDuration(run.duration_ms)}</Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </Box>
      )}
    </Stack>
  );
}
