import { Card, Stack, Text } from '@chakra-ui/react';
import { BILLING_TEXTS, currentSubscription, type Plan, type Subscription } from '@common/billing';
import { useState } from 'react';
import { ConfirmDeleteDialog } from '../../../ui/confirm-delete-dialog';
import { LoadErrorCard } from '../../../ui/load-error-card';
import { notify } from '../../../ui/toaster';
import { useAuth } from '../../../app/auth-context';
import { canCancel, cancelConfirmation, historyRow, planCards, subscriptionFeatures, summaryView, type BillingSubView, type PlanCard, type PlanFilter } from '../billing-view';
import { useCancelSubscription } from '../hooks/use-cancel-subscription';
import { useChangePlan } from '../hooks/use-change-plan';
import { useCreateSubscription } from '../hooks/use-create-subscription';
import type { usePlans } from '../hooks/use-plans';
import { useSubscriptions } from '../hooks/use-subscriptions';
import { AUTH_REQUIRED_TOAST, texts } from '../texts';
import { CurrentView } from './current-view';
import { HelpCards } from './help-cards';
import { PlansView } from './plans-view';
import { SummaryCard } from './summary-card';

/** My Subscription: the summary, then the current sub-view (history, features) or the plans, then help. */
export function SubscriptionTab({ plansQuery }: { plansQuery: ReturnType<typeof usePlans> }) {
  const subscriptions = useSubscriptions();
  if (subscriptions.isError) {
    return (
      <LoadErrorCard
        problem={BILLING_TEXTS.fetchSubscriptionsFailed}
        reason={subscriptions.error.message}
        actionLabel={texts.retry}
        onAction={() => void subscriptions.refetch()}
      />
    );
  }
  if (plansQuery.isError) {
    // The summary names the plan from GET /plans: without the plans it would name the wrong tier.
    return <LoadErrorCard problem={BILLING_TEXTS.fetchPlansFailed} reason={plansQuery.error.message} actionLabel={texts.retry} onAction={() => void plansQuery.refetch()} />;
  }
  const current = subscriptions.data ? currentSubscription(subscriptions.data) : null;
  // A subscription's summary names its plan from GET /plans; without one, the plans may still be loading.
  if (!subscriptions.data || (current && !plansQuery.data)) {
    return (
      <Card.Root variant="outline" aria-busy="true">
        <Card.Body>
          <Text color="fg.muted" role="status">
            {texts.loadingSubscription}
          </Text>
        </Card.Body>
      </Card.Root>
    );
  }
  return <SubscriptionContent current={current} plans={plansQuery.data?.plans ?? null} />;
}

function SubscriptionContent({ current, plans }: { current: Subscription | null; plans: readonly Plan[] | null }) {
  const { session } = useAuth();
  const [view, setView] = useState<BillingSubView>('current');
  const [filter, setFilter] = useState<PlanFilter>('all-plans');
  const create = useCreateSubscription();
  const change = useChangePlan();
  const cancel = useCancelSubscription();
  const busy = create.isPending || change.isPending || cancel.isPending;
  const cards = plans ? planCards(plans, current) : null;
  const backToCurrent = () => setView('current');

  const openPlans = () => {
    setFilter('all-plans');
    setView('plans');
  };
  const choose = (card: PlanCard) => {
    // Clicking the current plan does nothing; neither does anything while a change runs.
    if (card.action === 'current' || busy) return;
    if (!session) {
      notify.error(...AUTH_REQUIRED_TOAST);
      return;
    }
    if (!current) create.mutate(card.priceId, { onSuccess: backToCurrent });
    else change.mutate({ subscriptionId: current.id, priceId: card.priceId, direction: card.action }, { onSuccess: backToCurrent });
  };
  // Cancel Subscription asks first; once confirmed the dialog closes and the button shows 'Processing...'.
  const [confirmingCancel, setConfirmingCancel] = useState(false);
  const cancelCurrent = () => {
    setConfirmingCancel(false);
    if (!current || !session || busy) return;
    cancel.mutate(current.id);
  };

  return (
    <Stack gap="6">
      <SummaryCard
        view={summaryView(current, plans ?? [])}
        actions={{
          hasSubscription: current !== null,
          canCancel: canCancel(current),
          disabled: busy,
          cancelling: cancel.isPending,
          onChangePlan: openPlans,
          onCancel: () => setConfirmingCancel(true),
        }}
      />
      {current && (
        <ConfirmDeleteDialog
          {...cancelConfirmation(current, plans ?? [])}
          open={confirmingCancel}
          onOpenChange={setConfirmingCancel}
          onConfirm={cancelCurrent}
          deleting={cancel.isPending}
          confirmLabel={texts.cancelSubscription}
          busyLabel={texts.processing}
          dismissLabel={texts.keepSubscription}
        />
      )}
      {view === 'plans' ? (
        <PlansView cards={cards} filter={filter} onFilter={setFilter} busy={busy} onChoose={choose} onBack={current ? backToCurrent : null} />
      ) : (
        current && plans && <CurrentView row={historyRow(current, plans)} features={subscriptionFeatures(current, plans)} />
      )}
      <HelpCards />
    </Stack>
  );
}
