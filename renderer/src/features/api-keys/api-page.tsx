import { Box, Tabs } from '@chakra-ui/react';
import { BookOpen, Gauge, KeyRound } from 'lucide-react';
import { useSearchParams } from 'react-router-dom';
import { PageHeading } from '../../ui/page-heading';
import { ApiKeysTab } from './components/api-keys-tab';
import { DocsTab } from './components/docs-tab';
import { OverviewTab } from './components/overview-tab';
import { texts } from './texts';

const TABS = ['overview', 'keys', 'docs'] as const;
type Tab = (typeof TABS)[number];

/** /dashboard/api: Overview (plan, usage, quick start), API Keys, Documentation; the tab is kept in ?tab=. */
export function ApiPage() {
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: Tab = TABS.includes(requested as Tab) ? (requested as Tab) : 'overview';
  const open = (next: Tab) => setParams(next === 'overview' ? {} : { tab: next }, { replace: true });
  return (
    <>
      <PageHeading title={texts.title} subtitle={texts.subtitle} />
      <Tabs.Root value={tab} onValueChange={(details) => open(details.value as Tab)} lazyMount variant="line">
        <Tabs.List mb="4" overflowX="auto" overflowY="hidden">
          <Tabs.Trigger whiteSpace="nowrap" flexShrink={0} value="overview">
            <Box as="span" hideBelow="sm" display="inline-flex">
              <Gauge aria-hidden />
            </Box>{' '}
            {texts.tabs.overview}
          </Tabs.Trigger>
          <Tabs.Trigger whiteSpace="nowrap" flexShrink={0} value="keys">
            <Box as="span" hideBelow="sm" display="inline-flex">
              <KeyRound aria-hidden />
            </Box>{' '}
            {texts.tabs.keys}
          </Tabs.Trigger>
          <Tabs.Trigger whiteSpace="nowrap" flexShrink={0} value="docs">
            <Box as="span" hideBelow="sm" display="inline-flex">
              <BookOpen aria-hidden />
            </Box>{' '}
            {texts.tabs.docs}
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="overview">
          <OverviewTab onOpenTab={open} />
        </Tabs.Content>
        <Tabs.Content value="keys">
          <ApiKeysTab />
        </Tabs.Content>
        <Tabs.Content value="docs">
          <DocsTab />
        </Tabs.Content>
      </Tabs.Root>
    </>
  );
}
