import { Box, Card, Tabs, Text } from '@chakra-ui/react';
import type { ReportType } from '@common/projects';
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { PageHeading } from '../../ui/page-heading';
import { AvailableReports } from './available-reports';
import { RecentReports } from './recent-reports';
import { ReportGenerator } from './report-generator';
import { useOpenReportLink } from './use-open-report-link';

const TABS = ['recent', 'available', 'saved'] as const;
type Tab = (typeof TABS)[number];
const isTab = (value: string | null): value is Tab => TABS.includes(value as Tab);

/** /dashboard/reports: Recent Reports, Available Reports (with the generator) and Saved Reports. */
export function ReportsPage() {
  // The tab lives in the address (?tab=available), so reloads and links keep it.
  const [params, setParams] = useSearchParams();
  const tabParam = params.get('tab');
  const tab: Tab = isTab(tabParam) ? tabParam : 'recent';
  const [generating, setGenerating] = useState<ReportType | null>(null);
  // A report link of the desktop app (vibeeval://report/<id>) lands here with ?open=<id>.
  useOpenReportLink();

  return (
    <Box>
      <PageHeading title="Reports" subtitle="Security, performance, accessibility and analytics reports for your projects" />
      <Tabs.Root
        value={tab}
        onValueChange={(details) =>
          setParams(
            (previous) => {
              const next = new URLSearchParams(previous);
              if (details.value === 'recent') next.delete('tab');
              else next.set('tab', details.value);
              return next;
            },
            { replace: true },
          )
        }
        variant="line"
        colorPalette="brand"
        size={{ base: 'sm', sm: 'md' }}
        lazyMount
      >
        <Tabs.List overflowX="auto" overflowY="hidden" mb="5" css={{ scrollbarWidth: 'none' }}>
          <Tabs.Trigger value="recent" flexShrink="0" px={{ base: '2', sm: '4' }}>
            Recent Reports
          </Tabs.Trigger>
          <Tabs.Trigger value="available" flexShrink="0" px={{ base: '2', sm: '4' }}>
            Available Reports
          </Tabs.Trigger>
          <Tabs.Trigger value="saved" flexShrink="0" px={{ base: '2', sm: '4' }}>
            Saved Reports
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="recent" pt="0">
          <RecentReports />
        </Tabs.Content>
        <Tabs.Content value="available" pt="0">
          <AvailableReports onGenerate={setGenerating} />
        </Tabs.Content>
        <Tabs.Content value="saved" pt="0">
          <Card.Root variant="outline">
            <Card.Body>
              <Text color="fg.muted" textAlign="center" py="6">
                No saved reports found.
              </Text>
            </Card.Body>
          </Card.Root>
        </Tabs.Content>
      </Tabs.Root>
      <ReportGenerator type={generating} onClose={() => setGenerating(null)} />
    </Box>
  );
}
