import { Button, Card, Center, Field, Flex, HStack, Link, NativeSelect, Spinner, Tabs, Text, VStack } from '@chakra-ui/react';
import { BookOpen, History, LayoutDashboard, Plug, RefreshCw } from 'lucide-react';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { useLiveUpdates } from '../../api/live';
import { LoadErrorCard } from '../../ui/load-error-card';
import { PageHeading } from '../../ui/page-heading';
import { projectTitle } from '../projects/components/project-card';
import { HistoryTab } from './components/history-tab';
import { InstallationTab } from './components/installation-tab';
import { OverviewTab } from './components/overview-tab';
import { chooseProjectId } from './continuous-format';
import { useContinuousBuilds } from './hooks/use-continuous-builds';
import { useMonitoredProjects } from './hooks/use-monitored-projects';
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
  const projects = useMonitoredProjects();
  const requested = params.get('project');
  const projectId = chooseProjectId(requested, projects.projects.map((project) => project.id));
  const monitoring = useMonitoring(projectId);
  const builds = useContinuousBuilds(projectId);
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
      <Flex justify="space-between" align="start" gap="4" wrap="wrap">
        <PageHeading title={texts.title} subtitle={texts.subtitle} />
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
      <Body
        projects={projects}
        requested={requested}
        projectId={projectId}
        monitoring={monitoring}
        builds={builds}
        tab={tab}
        onNavigate={navigate}
      />
    </>
  );
}

interface BodyProps {
  projects: ReturnType<typeof useMonitoredProjects>;
  requested: string | null;
  projectId: string | null;
  monitoring: ReturnType<typeof useMonitoring>;
  builds: ReturnType<typeof useContinuousBuilds>;
  tab: Tab;
  onNavigate: (next: { project?: string; tab?: Tab }) => void;
}

/** The picker and tabs, or what stands in for them: loading, the no-projects state, the load error. */
function Body({ projects, requested, projectId, monitoring, builds, tab, onNavigate }: BodyProps) {
  if (!projectId) {
    if (projects.isPending) return <Loading />;
    if (projects.isError) return <LoadErrorCard problem={texts.loadFailed} actionLabel={texts.retry} onAction={() => void projects.refetch()} />;
    return <NoProjects />;
  }
  const known = projects.projects.some((project) => project.id === projectId);
  return (
    <>
      <Field.Root maxW={{ base: 'full', md: 'md' }} mb="4">
        <Field.Label>{texts.projectLabel}</Field.Label>
        <NativeSelect.Root>
          <NativeSelect.Field value={projectId} onChange={(e) => onNavigate({ project: e.currentTarget.value })} data-testid="project-picker">
            {!known && <option value={projectId}>{monitoring.data?.url ?? requested}</option>}
            {projects.projects.map((project) => (
              <option key={project.id} value={project.id}>
                {projectTitle(project)}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      </Field.Root>
      {monitoring.isError ? (
        <LoadErrorCard problem={texts.loadFailed} reason={monitoring.error.message} actionLabel={texts.retry} onAction={() => void monitoring.refetch()} />
      ) : (
        <Tabs.Root value={tab} onValueChange={(details) => onNavigate({ tab: details.value as Tab })} lazyMount variant="line" colorPalette="brand">
          <Tabs.List mb="4" overflowX="auto" overflowY="hidden">
            <Tabs.Trigger whiteSpace="nowrap" flexShrink={0} value="overview">
              <LayoutDashboard aria-hidden /> {texts.tabs.overview}
            </Tabs.Trigger>
            <Tabs.Trigger whiteSpace="nowrap" flexShrink={0} value="installation">
              <Plug aria-hidden /> {texts.tabs.installation}
            </Tabs.Trigger>
            <Tabs.Trigger whiteSpace="nowrap" flexShrink={0} value="history">
              <History aria-hidden /> {texts.tabs.history}
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
      )}
    </>
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
