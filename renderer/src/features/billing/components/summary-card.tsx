import { Button, Card, Grid, HStack, Heading, Stack, Text } from '@chakra-ui/react';
import { CalendarClock, CreditCard, ShieldCheck } from 'lucide-react';
import type { ReactNode } from 'react';
import type { SummaryView } from '../billing-view';
import { texts } from '../texts';

interface SummaryActions {
  /** Offered only for an active subscription not already cancelled. */
  canCancel: boolean;
  hasSubscription: boolean;
  /** Loading or a change running: every action waits. */
  disabled: boolean;
  cancelling: boolean;
  onChangePlan: () => void;
  onCancel: () => void;
}

/** The summary card: plan, status and billing cycle in three columns, then Change Plan / Cancel or Choose a Plan. */
export function SummaryCard({ view, actions }: { view: SummaryView; actions: SummaryActions }) {
  return (
    <Card.Root variant="outline" data-testid="billing-summary">
      <Card.Body gap="5">
        <Grid templateColumns={{ base: 'minmax(0, 1fr)', md: 'repeat(3, minmax(0, 1fr))' }} gap="5">
          <Column icon={<CreditCard aria-hidden />} label={texts.planColumn}>
            <Heading as="h2" size="lg" data-testid="billing-plan-title">
              {view.planTitle}
            </Heading>
            {view.periodLine && <Text data-testid="billing-period-line">{view.periodLine}</Text>}
            {view.scheduledLine && (
              <Text color="fg.warning" fontWeight="medium" data-testid="billing-scheduled-line">
                {view.scheduledLine}
              </Text>
            )}
            {view.notice && <Text color="fg.muted">{view.notice}</Text>}
          </Column>
          <Column icon={<ShieldCheck aria-hidden />} label={texts.statusColumn}>
            <Text fontWeight="medium" data-testid="billing-status">
              {view.statusText}
            </Text>
          </Column>
          <Column icon={<CalendarClock aria-hidden />} label={texts.cycleColumn}>
            <Text fontWeight="medium" data-testid="billing-cycle">
              {view.cycleText ?? texts.notAvailable}
            </Text>
          </Column>
        </Grid>
        <HStack gap="3" wrap="wrap">
          {actions.hasSubscription ? (
            <>
              <Button colorPalette="brand" onClick={actions.onChangePlan} disabled={actions.disabled}>
                {texts.changePlan}
              </Button>
              {actions.canCancel && (
                <Button variant="outline" colorPalette="red" onClick={actions.onCancel} disabled={actions.disabled}>
                  {actions.cancelling ? texts.processing : texts.cancelSubscription}
                </Button>
              )}
            </>
          ) : (
            <Button colorPalette="brand" onClick={actions.onChangePlan} disabled={actions.disabled}>
              {texts.choosePlan}
            </Button>
          )}
        </HStack>
      </Card.Body>
    </Card.Root>
  );
}

function Column({ icon, label, children }: { icon: ReactNode; label: string; children: ReactNode }) {
  return (
    <Stack gap="1.5" minW="0">
      <HStack gap="2" color="fg.muted" fontSize="sm">
        {icon}
        <Text>{label}</Text>
      </HStack>
      {children}
    </Stack>
  );
}
