import { Badge, Box, Card, EmptyState, HStack, Icon, Skeleton, Stack, Text, VStack } from '@chakra-ui/react';
import type { ReportLink } from '@common/projects';
import { ExternalLink as ExternalLinkIcon, FileText } from 'lucide-react';
import { useServices } from '../../app/services';
import { LoadMore } from '../../ui/load-more';
import { notify } from '../../ui/toaster';
import { formatRelativeDate } from '../../ui/relative-date';
import { absoluteReportUrl, issuesLabel, previewUrlFor, reportTypeLabel } from './report-links';
import { useRecentReports } from './use-reports';

/** Opens a report's preview page: a new tab on the web, a native window in the desktop app. */
export function useOpenReport() {
  const { bridge, serverOrigin } = useServices();
  return async (reportUrl: string) => {
    const signed = absoluteReportUrl(serverOrigin, reportUrl);
    const opened = signed ? await bridge.openReport(previewUrlFor(serverOrigin, signed)).catch(() => false) : false;
    if (!opened) notify.error('Could not open the report', 'Please try again later');
  };
}

/** The Recent Reports tab: each report link opens its preview. */
export function RecentReports() {
  const reports = useRecentReports();
  const openReport = useOpenReport();

  if (reports.isLoading) {
    return (
      <Stack gap="3" aria-busy="true" aria-label="Loading recent reports">
        {Array.from({ length: 3 }, (_, index) => (
          <Skeleton key={index} h="20" rounded="lg" />
        ))}
      </Stack>
    );
  }

  const items = reports.reports;
  if (items.length === 0) {
    return (
      <Card.Root variant="outline">
        <EmptyState.Root>
          <EmptyState.Content>
            <EmptyState.Indicator>
              <FileText />
            </EmptyState.Indicator>
            <VStack textAlign="center">
              <EmptyState.Title>{reports.isError ? 'Failed to load recent reports' : 'No recent reports found.'}</EmptyState.Title>
              <EmptyState.Description>{reports.isError ? 'Please try again later' : 'Reports appear here after a test runs or a report is generated.'}</EmptyState.Description>
            </VStack>
          </EmptyState.Content>
        </EmptyState.Root>
      </Card.Root>
    );
  }

  return (
    <Stack gap="3">
      <Stack as="ul" gap="3" listStyleType="none" m="0" p="0" aria-label="Recent reports">
        {items.map((report) => (
          <Box as="li" key={report.id}>
            <RecentReportItem report={report} onOpen={() => void openReport(report.report_url)} />
          </Box>
        ))}
      </Stack>
      <LoadMore query={reports} label="Load more reports" testId="load-more-reports" />
    </Stack>
  );
}

function RecentReportItem({ report, onOpen }: { report: ReportLink; onOpen: () => void }) {
  const issues = report.total_issues;
  const palette = issues === null ? 'gray' : issues === 0 ? 'severity.secure' : 'severity.moderate';
  return (
    <Box
      as="button"
      onClick={onOpen}
      data-testid="recent-report"
      w="full"
      textAlign="start"
      bg="bg"
      borderWidth="1px"
      rounded="lg"
      px={{ base: '4', md: '5' }}
      py="4"
      cursor="pointer"
      transition="border-color 0.15s, box-shadow 0.15s"
      _hover={{ borderColor: 'brand.solid', shadow: 'sm' }}
      focusVisibleRing="outside"
      title="Open the report preview"
    >
      <HStack gap="4" align="center">
        <Icon color="brand.fg" boxSize="5" hideBelow="sm" flexShrink="0">
          <FileText />
        </Icon>
        <Stack gap="1" flex="1" minW="0">
          <Text fontWeight="medium" truncate title={report.url}>
            {report.url}
          </Text>
          <HStack gap="2" flexWrap="wrap" fontSize="sm" color="fg.muted">
            <Badge colorPalette="brand" variant="subtle">
              {reportTypeLabel(report.type)}
            </Badge>
            <time dateTime={report.created_at}>{formatRelativeDate(report.created_at)}</time>
          </HStack>
        </Stack>
        <Badge colorPalette={palette} variant="subtle" size="lg" flexShrink="0" data-testid="report-issues">
          {issuesLabel(issues, report.warnings)}
        </Badge>
        <Icon color="fg.muted" boxSize="4" flexShrink="0" aria-hidden>
          <ExternalLinkIcon />
        </Icon>
      </HStack>
    </Box>
  );
}
