import { Alert, Box, Tabs } from '@chakra-ui/react';
import { currentSubscription } from '@common/billing';
import { CreditCard, LayoutGrid } from 'lucide-react';
import { useSearchParams } from 'react-router-dom';
import { LoadErrorCard } from '../../ui/load-error-card';
import { PageHeading } from '../../ui/page-heading';
import { tierOf, type BillingTab } from './billing-view';
import { CompareTab } from './components/compare-tab';
import { SubscriptionTab } from './components/subscription-tab';
import { usePlans } from './hooks/use-plans';
import { useSubscriptions } from './hooks/use-subscriptions';
import { texts } from './texts';

/** /dashboard/billing: My Subscription (default) and Compare Plans under a sticky tab bar; the tab is kept in ?tab=. */
export function BillingPage() {
  const [params, setParams] = useSearchParams();
  const tab: BillingTab = params.get('tab') === 'pricing' ? 'pricing' : 'dashboard';
  const plans = usePlans();
  return (
    <>
      <PageHeading title={texts.title} subtitle={texts.subtitle} />
      {plans.data?.provider === 'local' && (
        <Alert.Root status="neutral" variant="outline" mb="6" data-testid="billing-local-notice">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{texts.localNoticeTitle}</Alert.Title>
            <Alert.Description>{texts.localNotice}</Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}
      <Tabs.Root value={tab} onValueChange={(details) => setParams(details.value === 'pricing' ? { tab: 'pricing' } : {}, { replace: true })} lazyMount variant="line">
        {/* Sticky under the dashboard's 4rem header, on the page's own background. */}
        <Box position="sticky" top="16" zIndex="docked" bg="bg.subtle" mb="5" mx={{ base: '-4', md: '-8' }} px={{ base: '4', md: '8' }}>
          <Tabs.List aria-label={texts.tabsLabel} overflowX="auto" overflowY="hidden">
            <Tabs.Trigger value="dashboard" whiteSpace="nowrap" flexShrink={0}>
              <CreditCard aria-hidden /> {texts.tabs.dashboard}
            </Tabs.Trigger>
            <Tabs.Trigger value="pricing" whiteSpace="nowrap" flexShrink={0}>
              <LayoutGrid aria-hidden /> {texts.tabs.pricing}
            </Tabs.Trigger>
          </Tabs.List>
        </Box>
        <Tabs.Content value="dashboard" pt="0">
          <SubscriptionTab plansQuery={plans} />
        </Tabs.Content>
        <Tabs.Content value="pricing" pt="0">
          <PricingTab plansQuery={plans} />
        </Tabs.Content>
      </Tabs.Root>
    </>
  );
}

function PricingTab({ plansQuery }: { plansQuery: ReturnType<typeof usePlans> }) {
  const subscriptions = useSubscriptions();
  if (plansQuery.isError) {
    return <LoadErrorCard problem={texts.fetchPlansFailed} reason={plansQuery.error.message} actionLabel={texts.retry} onAction={() => void plansQuery.refetch()} />;
  }
  if (!plansQuery.data) return <Box color="fg.muted">{texts.loadingPlans}</Box>;
  const current = subscriptions.data ? currentSubscription(subscriptions.data) : null;
  return <CompareTab plans={plansQuery.data.plans} currentTier={current ? tierOf(current, plansQuery.data.plans) : null} />;
}
