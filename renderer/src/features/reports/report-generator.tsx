import { Alert, Badge, Box, Button, Field, HStack, Link, NativeSelect, Progress, Stack, Text, Wrap, chakra, useMediaQuery } from '@chakra-ui/react';
import { EXPORT_FORMATS, type ReportStatus, type ReportType } from '@common/projects';
import { PLAN_LIMIT_TEXTS } from '@common/plan-limits';
import { Download, ExternalLink as ExternalLinkIcon } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { useServices } from '../../app/services';
import type { LiveScanProgress } from '../../api/live';
import { queryKeys } from '../../api/query-keys';
import { ExternalLink } from '../../ui/external-link';
import { useOpenReport } from './recent-reports';
import { REPORT_TYPE_DETAILS, absoluteReportUrl, exportUrlFor, isReportFinished, issuesLabel, progressFromScan, progressMessage, progressPercent } from './report-links';
import { LoadMore } from '../../ui/load-more';
import { useProjectPicker } from '../../api/use-project-picker';
import { useGenerateReport, useReportStatus } from './use-reports';
import { usePlanLimits } from '../../api/use-plan-limits';
import { PlanLimitNotice } from '../../ui/plan-limit';
import { AppDialog } from '../../ui/app-dialog';

const STATE_LABELS: Record<ReportStatus['state'], string> = {
  queued: 'Queued',
  running: 'Generating',
  completed: 'Completed',
  failed: 'Failed',
};

/**
 * The closable generator view of one report type: pick a project, Generate (POST /reports), follow the
 * progress, then read the report in place, open its preview or download an export.
 */
export function ReportGenerator({ type, onClose }: { type: ReportType | null; onClose: () => void }) {
  // Full screen below 768 px; a responsive size object would keep 'full''s min-height on wider screens.
  const [wide = true] = useMediaQuery(['(min-width: 48em)']);
  return (
    <AppDialog
      open={type !== null}
      onOpenChange={(next) => !next && onClose()}
      size={wide ? 'xl' : 'full'}
      scrollBehavior="inside"
      lazy
      testId="report-generator"
      title={type ? `Generate ${REPORT_TYPE_DETAILS[type].title}` : ''}
      description={type ? REPORT_TYPE_DETAILS[type].description : undefined}
    >
      {type && <GeneratorBody type={type} />}
    </AppDialog>
  );
}

function GeneratorBody({ type }: { type: ReportType }) {
  const [reportId, setReportId] = useState<string | null>(null);
  const status = useReportStatus(reportId);
  const report = useWithScanProgress(status.data);

  return (
    <>
      {!reportId ? (
        <ProjectPicker type={type} onStarted={setReportId} />
      ) : !report ? (
        <ReportProgress report={null} />
      ) : report.state === 'completed' ? (
        <ReportResult report={report} />
      ) : report.state === 'failed' ? (
        <Stack gap="4">
          <Alert.Root status="error">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>Report generation failed</Alert.Title>
              {report.error && <Alert.Description>{report.error}</Alert.Description>}
            </Alert.Content>
          </Alert.Root>
          <Box>
            <Button variant="outline" onClick={() => setReportId(null)}>
              Try Again
            </Button>
          </Box>
        </Stack>
      ) : (
        <ReportProgress report={report} />
      )}
      {status.isError && !report && (
        <Text mt="3" color="fg.error" role="alert">
          {status.error.message}
        </Text>
      )}
    </>
  );
}

/**
 * A security report waits for its project's scan and has no progress of its own meanwhile: show the scan's
 * live progress (kept in the query cache by the live layer) instead.
 */
function useWithScanProgress(report: ReportStatus | undefined): ReportStatus | undefined {
  const waiting = report && report.type === 'security' && !report.progress && !isReportFinished(report) ? report.project_id : null;
  const scan = useQuery<LiveScanProgress | null>({
    queryKey: queryKeys.live.scanProgress(waiting ?? ''),
    // Only the live stream writes this key; nothing to fetch.
    queryFn: () => null,
    enabled: false,
  });
  if (!report || !waiting || !scan.data) return report;
  return { ...report, state: 'running', progress: progressFromScan(scan.data.progress) };
}

function ProjectPicker({ type, onStarted }: { type: ReportType; onStarted: (id: string) => void }) {
  const projects = useProjectPicker();
  const generate = useGenerateReport();
  const [projectId, setProjectId] = useState('');
  const list = projects.projects;
  const selected = projectId || list[0]?.id || '';

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!selected) return;
    generate.mutate({ project_id: selected, type }, { onSuccess: (report) => onStarted(report.id) });
  }

  if (!projects.isLoading && list.length === 0) {
    return (
      <Stack gap="3">
        <Text>{projects.isError ? 'Could not retrieve your projects. Please try again later.' : 'You have no projects yet.'}</Text>
        {!projects.isError && (
          <Text color="fg.muted">
            A report is generated for one of your projects.{' '}
            <Link asChild colorPalette="brand" color="colorPalette.fg" fontWeight="medium">
              <RouterLink to="/dashboard/projects">Create a project first</RouterLink>
            </Link>
            .
          </Text>
        )}
      </Stack>
    );
  }

  return (
    <form onSubmit={handleSubmit}>
      <Stack gap="5">
        <Field.Root required disabled={projects.isLoading}>
          <Field.Label>Project</Field.Label>
          <NativeSelect.Root>
            <NativeSelect.Field
              name="project"
              value={selected}
              onChange={(e) => setProjectId(e.currentTarget.value)}
              placeholder={projects.isLoading ? 'Loading projects...' : undefined}
            >
              {list.map((project) => (
                <option key={project.id} value={project.id}>
                  {project.instruction_text?.trim() || project.url} ({project.url})
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
          <Field.HelperText>The report covers this project's website.</Field.HelperText>
        </Field.Root>
        <LoadMore query={projects} label="Load more projects" testId="load-more-picker" />
        <HStack justify="flex-end">
          <Button type="submit" colorPalette="brand" loading={generate.isPending} loadingText="Generating..." disabled={!selected}>
            Generate
          </Button>
        </HStack>
      </Stack>
    </form>
  );
}

function ReportProgress({ report }: { report: ReportStatus | null }) {
  const percent = report ? progressPercent(report.progress) : null;
  const message = report ? progressMessage(report) : 'Starting...';
  return (
    <Stack gap="4" data-testid="report-progress">
      <Progress.Root value={percent} max={100} colorPalette="brand" size="lg">
        <HStack justify="space-between" mb="2">
          <Progress.Label>{report ? STATE_LABELS[report.state] : 'Starting'}</Progress.Label>
          {percent !== null && <Progress.ValueText />}
        </HStack>
        <Progress.Track>
          <Progress.Range />
        </Progress.Track>
      </Progress.Root>
      <Text color="fg.muted" fontSize="sm" aria-live="polite">
        {message}
        {report?.progress && report.progress.total > 0 ? ` (${report.progress.done} of ${report.progress.total})` : ''}
      </Text>
      {report && (
        <Text fontSize="sm" color="fg.muted">
          You can close this window: the report will also appear under Recent Reports.
        </Text>
      )}
    </Stack>
  );
}

function ReportResult({ report }: { report: ReportStatus }) {
  const { serverOrigin } = useServices();
  const openReport = useOpenReport();
  const signed = report.report_url ? absoluteReportUrl(serverOrigin, report.report_url) : null;
  const plan = usePlanLimits();
  // The plan's formats only (Basic: HTML); the others would be refused by the server, so the prompt says why instead.
  const allowed = plan.data?.limits.report_formats;
  const formats = EXPORT_FORMATS.filter((format) => !allowed || allowed.includes(format));

  if (!signed) {
    return <Text color="fg.error">The report is ready but its link is missing. Open it from Recent Reports.</Text>;
  }
  return (
    <Stack gap="4" data-testid="report-result">
      <Stack gap="3" direction={{ base: 'column', md: 'row' }} justify="space-between" align={{ md: 'center' }}>
        <HStack gap="2" minW="0">
          <Badge colorPalette="green" variant="subtle">
            Completed
          </Badge>
          <Text fontSize="sm" color="fg.muted" truncate title={report.url}>
            {report.url}
          </Text>
          <Badge variant="outline" flexShrink="0">
            {issuesLabel(report.total_issues, report.warnings)}
          </Badge>
        </HStack>
        <Button size="sm" colorPalette="brand" onClick={() => void openReport(signed)}>
          <ExternalLinkIcon aria-hidden /> Open Preview
        </Button>
      </Stack>
      <Wrap gap="2" aria-label="Download the report">
        {formats.map((format) => {
          const href = exportUrlFor(signed, format);
          return href ? (
            <Button key={format} asChild size="xs" variant="outline">
              <ExternalLink href={href} download aria-label={`Download ${format.toUpperCase()}`} _hover={{ textDecoration: 'none' }}>
                <Download aria-hidden /> {format.toUpperCase()}
              </ExternalLink>
            </Button>
          ) : null;
        })}
      </Wrap>
      {plan.data && formats.length < EXPORT_FORMATS.length && <PlanLimitNotice detail={PLAN_LIMIT_TEXTS.reportFormats(plan.data.tier)} />}
      <chakra.iframe
        src={signed}
        title={`${REPORT_TYPE_DETAILS[report.type].title} for ${report.url}`}
        // The report is static HTML from our server (no scripts): give its frame nothing at all.
        sandbox=""
        referrerPolicy="no-referrer"
        w="full"
        h={{ base: '60dvh', md: '65vh' }}
        borderWidth="1px"
        rounded="md"
        bg="white"
      />
    </Stack>
  );
}
