import { Button, Center, Heading, Spinner, Stack, Tabs, Text } from '@chakra-ui/react';
import { ArrowLeft } from 'lucide-react';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { useLiveUpdates } from '../../api/live';
import { useMenuCommand } from '../../app/menu-commands';
import { useServices } from '../../app/services';
import { ConfirmDeleteDialog } from '../../ui/confirm-delete-dialog';
import { notify } from '../../ui/toaster';
import { useDocumentTitle } from '../../ui/use-document-title';
import { ContinuousTestingCard } from '../continuous-testing';
import { ActivityTab } from './components/activity-tab';
import { HistoryTab } from './components/history-tab';
import { historyTexts } from './history-texts';
import { PermissionDialog } from './components/permission-dialog';
import { projectTitle } from '../../ui/project-title';
import { ProjectDetailsCard } from './components/project-details-card';
import { ProjectHeader } from './components/project-header';
import { ScanSection } from './components/scan-results';
import { SettingsTab } from './components/settings-tab';
import { useConfirmPermission } from './hooks/use-confirm-permission';
import { useDeleteProject } from './hooks/use-delete-project';
import { useProject } from './hooks/use-project';
import { useRunTest } from './hooks/use-run-test';
import { useScanProgress } from './hooks/use-scan-progress';
import { texts } from './texts';

/** /dashboard/projects/:id */
export function ProjectDetailPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  // Deleted: the list first, then the project's cache goes (nothing on screen asks for it any more).
  const remove = useDeleteProject(id, { leave: () => navigate('/dashboard/projects') });
  const project = useProject(id, { enabled: !remove.isPending && !remove.isSuccess });
  const runTest = useRunTest(id);
  const live = useScanProgress(id);
  const [confirming, setConfirming] = useState(false);
  const [tab, setTab] = useState('overview');
  // Edit opens Settings with its first field focused; each click counts, so a second Edit focuses it again.
  const [editRequests, setEditRequests] = useState(0);
  const { bridge } = useServices();
  const confirmPermission = useConfirmPermission(id);
  const [askingPermission, setAskingPermission] = useState(false);
  // The desktop app asks once per project, before its first test, that the user may test the site (the terms
  // require it); the server keeps the answer with the project, so it is asked once whichever machine runs it. A
  // project just created is shown from the create answer, which has no confirmation: unset, so asked.
  const startTest = () => {
    if (bridge.kind === 'desktop' && !project.data?.permission_confirmed_at) setAskingPermission(true);
    else runTest.mutate();
  };
  useLiveUpdates();
  useDocumentTitle(project.data ? projectTitle(project.data) : 'Project');
  // The desktop app's File › Run Test: what the Run Test button does, when it can.
  useMenuCommand('run-test', () => {
    const state = project.data?.latest_scan?.state;
    if (!project.data) notify.info(texts.menuRunTestUnavailable);
    else if (runTest.isPending || state === 'queued' || state === 'running') notify.info(texts.menuRunTestBusy);
    else startTest();
  });

  const backToList = () => void navigate('/dashboard/projects');
  const openSettings = () => {
    setTab('settings');
    setEditRequests((count) => count + 1);
  };

  if (project.isPending) {
    return (
      <Center minH="60" flexDirection="column" gap="3" role="status" data-testid="project-loading">
        <Spinner size="lg" color="brand.solid" />
        <Text color="fg.muted">Loading project details...</Text>
      </Center>
    );
  }
  if (project.isError) {
    return (
      <Center minH="60" flexDirection="column" gap="4" textAlign="center" data-testid="project-not-found">
        <Heading as="h1" size="xl">
          Project not found
        </Heading>
        <Button variant="outline" onClick={backToList}>
          <ArrowLeft />
          Back to Projects
        </Button>
      </Center>
    );
  }

  const data = project.data;
  const latest = data.latest_scan;
  const scanning = latest?.state === 'queued' || latest?.state === 'running';
  const progress = latest && live?.scan_id === latest.id ? live.progress : latest?.progress;

  function handleDelete() {
    remove.mutate(undefined, { onSuccess: () => setConfirming(false) });
  }

  return (
    <Stack gap="6">
      <ProjectHeader
        project={data}
        scan={scanning ? { state: latest.state === 'queued' ? 'queued' : 'running', progress } : null}
        runPending={runTest.isPending}
        onBack={backToList}
        onRun={startTest}
        onEdit={openSettings}
        onDelete={() => setConfirming(true)}
      />

      <Tabs.Root value={tab} onValueChange={(details) => setTab(details.value)} variant="line" lazyMount colorPalette="brand">
        <Tabs.List overflowX="auto">
          <Tabs.Trigger value="overview">Overview</Tabs.Trigger>
          <Tabs.Trigger value="activity">Activity</Tabs.Trigger>
          <Tabs.Trigger value="history">{historyTexts.tab}</Tabs.Trigger>
          <Tabs.Trigger value="settings">Settings</Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="overview">
          <Stack gap="6">
            <ProjectDetailsCard project={data} />
            <ScanSection project={data} />
            <ContinuousTestingCard projectId={data.id} />
          </Stack>
        </Tabs.Content>
        <Tabs.Content value="activity">
          <ActivityTab project={data} />
        </Tabs.Content>
        <Tabs.Content value="history">
          <HistoryTab projectId={data.id} />
        </Tabs.Content>
        <Tabs.Content value="settings">
          <SettingsTab key={data.id} project={data} focusRequests={editRequests} />
        </Tabs.Content>
      </Tabs.Root>

      <ConfirmDeleteDialog
        title="Delete project"
        question={texts.deleteConfirm}
        name={projectTitle(data)}
        open={confirming}
        onOpenChange={setConfirming}
        onConfirm={handleDelete}
        deleting={remove.isPending}
      />
      <PermissionDialog
        url={data.url}
        open={askingPermission}
        confirming={confirmPermission.isPending}
        onClose={() => setAskingPermission(false)}
        onConfirm={() =>
          confirmPermission.mutate(undefined, {
            onSuccess: () => {
              setAskingPermission(false);
              runTest.mutate();
            },
          })
        }
      />
    </Stack>
  );
}
