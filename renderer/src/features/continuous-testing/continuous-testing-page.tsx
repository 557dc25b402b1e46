import { Button, Card, Center, Field, Flex, HStack, Icon, Link, NativeSelect, Spinner, Tabs, Text, VStack } from '@chakra-ui/react';
import { BookOpen, History, LayoutDashboard, Plug, RefreshCw } from 'lucide-react';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { useLiveUpdates } from '../../api/live';
import { LoadErrorCard } from '../../ui/load-error-card';
import { PageHeading } from '../../ui/page-heading';
import { projectTitle } from '../../ui/project-title';
import { HistoryTab } from './components/history-tab';
import { InstallationTab } from './components/installation-tab';
import { OverviewTab } from './components/overview-tab';
import { chooseProjectId } from './continuous-format';
import { useContinuousBuilds } from './hooks/use-continuous-builds';
import { usePlanLimits } from '../../api/use-plan-limits';
import { useProjectPicker } from '../../api/use-project-picker';
import { useMonitoring } from './hooks/use-monitoring';
import { texts } from './texts';

const TABS = ['overview', 'installation', 'history'] as const;
type Tab = (typeof TABS)[number];

/**
 * /dashboard/continuous-testing?project=<id>&tab=<tab>: one project at a time (the first one without ?project=),
 * tabs Overview, Installation and Event History. Builds made or judged arrive on the live stream.
 */
export function ContinuousTestingPage() {
  const [params, setParams] = useSearchParams();
  const projects = useProjectPicker();
  const requested = params.get('project');
  const projectId = chooseProjectId(
    requested,
    projects.projects.map((project) => project.id),
  );
  const monitoring = useMonitoring(projectId);
  const builds = useContinuousBuilds(projectId);
  // Asked with the page's other queries, not once the schedule form shows after the monitoring data: its answer
  // decides which frequencies the form offers, and the form waits for it.
  usePlanLimits();
  useLiveUpdates();

  const requestedTab = params.get('tab');
  const tab: Tab = TABS.includes(requestedTab as Tab) ? (requestedTab as Tab) : 'overview';
  const navigate = (next: { project?: string; tab?: Tab }) => {
    const query: Record<string, string> = {};
    const nextProject = next.project ?? projectId;
    const nextTab = next.tab ?? tab;
    if (nextProject) query.project = nextProject;
    if (nextTab !== 'overview') query.tab = nextTab;
    setParams(query, { replace: true });
  };
  const refresh = () => {
    void projects.refetch();
    if (projectId) void Promise.all([monitoring.refetch(), builds.refetch()]);
  };
  const refreshing = projects.isRefetching || monitoring.isRefetching || builds.isRefetching;

  return (
    <>
      <PageHeading title={texts.title} subtitle={texts.subtitle} />
      <Flex gap="3" mb="4" wrap="wrap" align="end">
        {projectId && (
          <ProjectPicker projects={projects.projects} projectId={projectId} fallbackName={monitoring.data?.url ?? requested} onPick={(project) => navigate({ project })} />
        )}
        <HStack gap="2" wrap="wrap">
          <Button variant="outline" asChild>
            <RouterLink to="/vibe-loop">
              <BookOpen aria-hidden /> {texts.guide}
            </RouterLink>
          </Button>
          <Button variant="outline" onClick={refresh} loading={refreshing} disabled={!projectId}>
            <RefreshCw aria-hidden /> {texts.refresh}
          </Button>
        </HStack>
      </Flex>
      <Body projects={projects} projectId={projectId} monitoring={monitoring} builds={builds} tab={tab} onNavigate={navigate} />
    </>
  );
}

interface PickerProps {
  projects: ReturnType<typeof useProjectPicker>['projects'];
  projectId: string;
  /** Shown for a ?project= that is not among the listed projects (e.g. beyond the first page). */
  fallbackName: string | null;
  onPick: (projectId: string) => void;
}

function ProjectPicker({ projects, projectId, fallbackName, onPick }: PickerProps) {
  const known = projects.some((project) => project.id === projectId);
  return (
    <Field.Root flex="1 1 18rem" minW="0" maxW={{ base: 'full', md: 'md' }}>
      <Field.Label>{texts.projectLabel}</Field.Label>
      <NativeSelect.Root>
        <NativeSelect.Field value={projectId} onChange={(e) => onPick(e.currentTarget.value)} data-testid="project-picker">
          {!known && <option value={projectId}>{fallbackName ?? projectId}</option>}
          {projects.map((project) => (
            <option key={project.id} value={project.id}>
              {projectTitle(project)}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </Field.Root>
  );
}

interface BodyProps {
  projects: ReturnType<typeof useProjectPicker>;
  projectId: string | null;
  monitoring: ReturnType<typeof useMonitoring>;
  builds: ReturnType<typeof useContinuousBuilds>;
  tab: Tab;
  onNavigate: (next: { project?: string; tab?: Tab }) => void;
}

/** The tabs (icons from the sm breakpoint: at 375 px the three labels alone fit), or what stands in for them: loading, the no-projects state, the load error. */
function Body({ projects, projectId, monitoring, builds, tab, onNavigate }: BodyProps) {
  if (!projectId) {
    if (projects.isPending) return <Loading />;
    if (projects.isError) return <LoadErrorCard problem={texts.loadFailed} actionLabel={texts.retry} onAction={() => void projects.refetch()} />;
    return <NoProjects />;
  }
  if (monitoring.isError) {
    return <LoadErrorCard problem={texts.loadFailed} reason={monitoring.error.message} actionLabel={texts.retry} onAction={() => void monitoring.refetch()} />;
  }
  return (
    <Tabs.Root value={tab} onValueChange={(details) => onNavigate({ tab: details.value as Tab })} lazyMount variant="line" colorPalette="brand">
      <Tabs.List mb="4" overflowX="auto" overflowY="hidden">
        <Tabs.Trigger whiteSpace="nowrap" flexShrink={0} px={{ base: '2.5', sm: '4' }} value="overview">
          <Icon hideBelow="sm" aria-hidden>
            <LayoutDashboard />
          </Icon>{' '}
          {texts.tabs.overview}
        </Tabs.Trigger>
        <Tabs.Trigger whiteSpace="nowrap" flexShrink={0} px={{ base: '2.5', sm: '4' }} value="installation">
          <Icon hideBelow="sm" aria-hidden>
            <Plug />
          </Icon>{' '}
          {texts.tabs.installation}
        </Tabs.Trigger>
        <Tabs.Trigger whiteSpace="nowrap" flexShrink={0} px={{ base: '2.5', sm: '4' }} value="history">
          <Icon hideBelow="sm" aria-hidden>
            <History />
          </Icon>{' '}
          {texts.tabs.history}
        </Tabs.Trigger>
      </Tabs.List>
      <Tabs.Content value="overview">{monitoring.data ? <OverviewTab overview={monitoring.data} /> : <Loading />}</Tabs.Content>
      <Tabs.Content value="installation">
        {monitoring.data ? <InstallationTab overview={monitoring.data} onOpenHistory={() => onNavigate({ tab: 'history' })} /> : <Loading />}
      </Tabs.Content>
      <Tabs.Content value="history">
        <HistoryTab builds={builds} />
      </Tabs.Content>
    </Tabs.Root>
  );
}

function Loading() {
  return (
    <Center minH="40" role="status" flexDirection="column" gap="3">
      <Spinner size="lg" color="brand.solid" />
      <Text color="fg.muted">Loading continuous testing...</Text>
    </Center>
  );
}

function NoProjects() {
  return (
    <Card.Root variant="outline" data-testid="continuous-no-projects">
      <Card.Body>
        <VStack gap="3" py="8" textAlign="center">
          <Text fontWeight="semibold" fontSize="lg">
            {texts.noProjects}
          </Text>
          <Text color="fg.muted" maxW="md">
            {texts.noProjectsHint}
          </Text>
          <Link asChild color="brand.fg" fontWeight="medium">
            <RouterLink to="/dashboard/projects">{texts.goToProjects}</RouterLink>
          </Link>
        </VStack>
      </Card.Body>
    </Card.Root>
  );
}
