import { Alert, Box, Button, Card, EmptyState, Flex, HStack, Input, InputGroup, Link, Skeleton, Stack, VStack } from '@chakra-ui/react';
import { toScenarioView, type ScenarioRun } from '@common/scenarios';
import { FlaskConical, MonitorPlay, Play, RefreshCw, Search, SearchX, Sparkles } from 'lucide-react';
import { Suspense, lazy, useDeferredValue, useMemo, useState, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { useLiveUpdates } from '../../api/live';
import { ConfirmDeleteDialog } from '../../ui/confirm-delete-dialog';
import { LoadErrorCard } from '../../ui/load-error-card';
import { LoadMore } from '../../ui/load-more';
import { PageHeading } from '../../ui/page-heading';
import { ScenarioCodeDialog } from './components/scenario-code-dialog';
import type { RowAction } from './components/scenario-row-actions';
import { ScenarioRows } from './components/scenarios-table';
import { useDeleteScenario } from './hooks/use-delete-scenario';
import { useRunAll } from './hooks/use-run-all';
import { useRunScenario } from './hooks/use-run-scenario';
import { useRunPolling } from './hooks/use-scenario';
import { useScenarios } from './hooks/use-scenarios';
import { filterScenarios, isActiveRun, runAllTally, scenarioCallError, type RunAllBatch } from './scenario-format';
import { CALL_NAMES, passedNotice, texts } from './texts';

// The generate and details dialogs (checkboxes, project picker, run history) load when first opened.
const GenerateScenariosDialog = lazy(() => import('./components/generate-scenarios-dialog').then((m) => ({ default: m.GenerateScenariosDialog })));
const ScenarioDetailsDialog = lazy(() => import('./components/scenario-details-dialog').then((m) => ({ default: m.ScenarioDetailsDialog })));

/** /dashboard/scans: the AI Browser's test scenarios, searchable, run in Chromium one at a time or all together. */
export function ScenariosPage() {
  useLiveUpdates();
  const list = useScenarios();
  const runOne = useRunScenario();
  const runAll = useRunAll();
  const remove = useDeleteScenario();
  const [search, setSearch] = useState('');
  const deferredSearch = useDeferredValue(search);
  const [batch, setBatch] = useState<RunAllBatch | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [dialog, setDialog] = useState<{ action: RowAction | 'generate'; id: string } | null>(null);

  const scenarios = list.scenarios;
  const views = useMemo(() => scenarios.map(toScenarioView), [scenarios]);
  const rows = useMemo(() => filterScenarios(views, deferredSearch), [views, deferredSearch]);
  const byId = useMemo(() => new Map(scenarios.map((scenario) => [scenario.id, scenario])), [scenarios]);

  // Runs in progress are polled as well as followed live, so a dropped stream cannot leave a row 'Running'.
  const activeIds = scenarios.filter((scenario) => isActiveRun(scenario.last_run?.status)).map((scenario) => scenario.id);
  const batchIds = batch ? batch.runs.map((run) => run.scenario_id).filter((id) => !activeIds.includes(id) && !byId.has(id)) : [];
  const polled = useRunPolling([...activeIds, ...batchIds]);
  const runsOf = (id: string): ScenarioRun[] => [...(byId.get(id)?.last_run ? [byId.get(id)!.last_run!] : []), ...(polled.get(id)?.runs ?? [])];
  const tally = batch ? runAllTally(batch, runsOf) : null;
  if (tally) {
    // Every run of the batch has finished: keep the real count, then stop tracking (state set while rendering,
    // React's pattern for state derived from changing data).
    setNotice(passedNotice(tally.passed, tally.total));
    setBatch(null);
  }

  const runLocked = runOne.isPending || runAll.isPending || activeIds.length > 0;
  const runAllDisabled = list.isLoading || scenarios.length === 0 || list.isError || runAll.isPending || batch !== null;
  const selected = dialog ? (byId.get(dialog.id) ?? null) : null;
  const selectedName = selected ? toScenarioView(selected).name : '';

  const startAll = () => {
    setNotice(null);
    runAll.mutate(undefined, { onSuccess: ({ runs }) => (runs.length > 0 ? setBatch({ runs }) : setNotice(passedNotice(0, 0))) });
  };

  if (list.isError && !list.data) return <LoadError message={scenarioCallError(CALL_NAMES.list, list.error)} onRetry={() => void list.refetch()} />;

  return (
    <Box>
      <Flex justify="space-between" align="start" gap="4" wrap="wrap" mb="6">
        <Box flex="1" minW="16rem" css={{ '& > div': { mb: 0 } }}>
          <PageHeading title={texts.title} subtitle={texts.subtitle} />
        </Box>
        <Link asChild fontSize="sm" colorPalette="brand" fontWeight="medium" mt={{ md: '2' }}>
          <RouterLink to="/vibe-loop">
            <MonitorPlay size={16} aria-hidden /> {texts.liveDemo}
          </RouterLink>
        </Link>
      </Flex>

      <Flex gap="3" mb="4" direction={{ base: 'column', lg: 'row' }} align={{ lg: 'center' }}>
        <InputGroup flex="1" startElement={<Search size={16} aria-hidden />}>
          <Input type="search" aria-label={texts.searchLabel} placeholder={texts.searchPlaceholder} value={search} onChange={(e) => setSearch(e.target.value)} bg="bg" />
        </InputGroup>
        <HStack gap="2" wrap="wrap">
          <Button variant="outline" bg="bg" onClick={() => void list.refetch()} loading={list.isFetching && !list.isLoading} loadingText={texts.refresh} disabled={list.isLoading}>
            <RefreshCw aria-hidden /> {texts.refresh}
          </Button>
          <Button variant="outline" bg="bg" onClick={startAll} disabled={runAllDisabled} loading={runAll.isPending || batch !== null} loadingText={texts.runAll}>
            <Play aria-hidden /> {texts.runAll}
          </Button>
          <Button colorPalette="brand" onClick={() => setDialog({ action: 'generate', id: '' })}>
            <Sparkles aria-hidden /> {texts.generate}
          </Button>
        </HStack>
      </Flex>

      {notice && (
        <Alert.Root status="info" mb="4" data-testid="run-all-notice" role="status">
          <Alert.Indicator />
          <Alert.Title>{notice}</Alert.Title>
        </Alert.Root>
      )}
      {list.isError && list.data && (
        <Alert.Root status="error" mb="4">
          <Alert.Indicator />
          <Alert.Title>{texts.loadFailedFallback}</Alert.Title>
        </Alert.Root>
      )}

      <Card.Root variant="outline" overflow="hidden">
        {list.isLoading ? (
          <LoadingRows />
        ) : scenarios.length === 0 ? (
          <Empty icon={<FlaskConical />} title={texts.empty} description={texts.emptyHint} />
        ) : rows.length === 0 ? (
          <Empty icon={<SearchX />} title={texts.noMatch} description={`No scenario name or URL contains “${search.trim()}”.`} />
        ) : (
          <ScenarioRows
            rows={rows}
            startingId={runOne.isPending ? (runOne.variables ?? null) : null}
            runLocked={runLocked}
            onRun={(id) => runOne.mutate(id)}
            onAction={(id, action) => setDialog({ action, id })}
          />
        )}
      </Card.Root>
      <Flex justify="center" mt="3">
        <LoadMore query={list} label="Load more scenarios" testId="load-more-scenarios" />
      </Flex>

      <Suspense fallback={null}>
        {dialog?.action === 'generate' && <GenerateScenariosDialog open onOpenChange={(open) => !open && setDialog(null)} />}
        {dialog?.action === 'details' && <ScenarioDetailsDialog id={dialog.id} onClose={() => setDialog(null)} />}
      </Suspense>
      <ScenarioCodeDialog scenario={dialog?.action === 'code' ? selected : null} name={selectedName} onClose={() => setDialog(null)} />
      <ConfirmDeleteDialog
        title="Delete test scenario"
        question={texts.deleteConfirm}
        name={selectedName}
        open={dialog?.action === 'delete' && selected !== null}
        onOpenChange={(open) => !open && setDialog(null)}
        deleting={remove.isPending}
        onConfirm={() => selected && remove.mutate(selected.id, { onSettled: () => setDialog(null) })}
      />
    </Box>
  );
}

function Empty({ icon, title, description }: { icon: ReactNode; title: string; description: string }) {
  return (
    <EmptyState.Root>
      <EmptyState.Content>
        <EmptyState.Indicator>{icon}</EmptyState.Indicator>
        <VStack textAlign="center">
          <EmptyState.Title>{title}</EmptyState.Title>
          <EmptyState.Description>{description}</EmptyState.Description>
        </VStack>
      </EmptyState.Content>
    </EmptyState.Root>
  );
}

function LoadingRows() {
  return (
    <Stack gap="3" p="4" aria-busy="true" aria-label="Loading test scenarios">
      {Array.from({ length: 5 }, (_, index) => (
        <HStack key={index} gap="4">
          <Skeleton h="5" flex="2" />
          <Skeleton h="4" flex="2" hideBelow="md" />
          <Skeleton h="4" w="10" />
          <Skeleton h="5" w="16" />
          <Skeleton h="8" w="24" />
        </HStack>
      ))}
    </Stack>
  );
}

/** The error state: 'There was a problem loading your test scenarios', the reason, and Retry. */
function LoadError({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <Box>
      <PageHeading title={texts.title} />
      <LoadErrorCard problem={texts.loadProblem} reason={message || texts.loadFailedFallback} actionLabel={texts.retry} onAction={onRetry} />
    </Box>
  );
}
