import { Badge, Box, Card, Code, HStack, Heading, Link, Progress, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import type { MonitoringOverview } from '@common/continuous';
import { gradeSchema } from '@common/scan';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { formatEventTime } from '../../../ui/relative-date';
import { GradeBadge } from '../../../ui/badges';
import { usageMeter } from '../continuous-format';
import { texts } from '../texts';
import { BuildStatusBadge } from './build-status-badge';
import { ScheduleForm } from './schedule-form';

/** Overview: the current build and its status, the last scan's grade, this month's usage and the schedule. */
export function OverviewTab({ overview }: { overview: MonitoringOverview }) {
  return (
    <Stack gap="6">
      <SimpleGrid columns={{ base: 1, md: 3 }} gap="4">
        <CurrentBuildCard overview={overview} />
        <LastGradeCard overview={overview} />
        <UsageCard usage={overview.usage} />
      </SimpleGrid>
      <ScheduleForm key={overview.project_id} overview={overview} />
    </Stack>
  );
}

function Tile({ title, children, testId }: { title: string; children: ReactNode; testId: string }) {
  return (
    <Card.Root variant="outline" data-testid={testId} minW="0">
      <Card.Body gap="2">
        <Heading as="h2" size="sm" color="fg.muted" fontWeight="medium">
          {title}
        </Heading>
        {children}
      </Card.Body>
    </Card.Root>
  );
}

function CurrentBuildCard({ overview }: { overview: MonitoringOverview }) {
  const build = overview.current_build;
  return (
    <Tile title={texts.currentBuild} testId="current-build">
      {build ? (
        <>
          <HStack gap="2" wrap="wrap">
            <Code fontSize="md" data-testid="current-build-hash">
              {build.build_hash}
            </Code>
            <BuildStatusBadge status={build.status} />
          </HStack>
          <Text fontSize="sm" color="fg.muted">
            {texts.triggers[build.trigger]} · {formatEventTime(build.timestamp)}
          </Text>
        </>
      ) : (
        <>
          <Text fontWeight="semibold">{texts.noBuild}</Text>
          <Text fontSize="sm" color="fg.muted">
            {texts.noBuildHint}
          </Text>
        </>
      )}
    </Tile>
  );
}

function LastGradeCard({ overview }: { overview: MonitoringOverview }) {
  const scan = overview.last_scan;
  const grade = gradeSchema.safeParse(scan?.grade);
  return (
    <Tile title={texts.lastGrade} testId="last-grade">
      {scan ? (
        <>
          <HStack gap="2" wrap="wrap">
            {grade.success ? <GradeBadge grade={grade.data} label={texts.lastGrade} size="lg" /> : <Badge size="lg">—</Badge>}
            {scan.score !== null && (
              <Text fontSize="sm" color="fg.muted">
                {scan.score} / 100
              </Text>
            )}
          </HStack>
          <Text fontSize="sm" color="fg.muted">
            {formatEventTime(scan.finished_at)} ·{' '}
            <Link asChild color="brand.fg">
              <RouterLink to={`/dashboard/projects/${encodeURIComponent(overview.project_id)}`}>{texts.viewScan}</RouterLink>
            </Link>
          </Text>
        </>
      ) : (
        <Text fontWeight="semibold">{texts.noScan}</Text>
      )}
    </Tile>
  );
}

function UsageCard({ usage }: { usage: MonitoringOverview['usage'] }) {
  const meter = usageMeter(usage);
  return (
    <Tile title={texts.usage} testId="usage-meter">
      <Text fontWeight="semibold" data-testid="usage-label">
        {meter.label}
      </Text>
      <Progress.Root value={meter.percent} max={100} colorPalette={meter.exhausted ? 'red' : 'brand'} aria-label={texts.usage} size="sm">
        <Progress.Track>
          <Progress.Range />
        </Progress.Track>
      </Progress.Root>
      <Box fontSize="xs" color="fg.muted">
        {texts.usageHint}
      </Box>
    </Tile>
  );
}
