import { Alert, Button } from '@chakra-ui/react';
import { PLAN_LIMIT_TEXTS, planLimitErrorSchema, type PlanLimitError } from '@common/plan-limits';
import { useEffect, useRef } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { ApiError } from '../api/http';

/** The plan's refusal inside an API error (a 403 with `plan_limit`), or null for any other error. */
export function planLimitOf(error: unknown): PlanLimitError | null {
  if (!(error instanceof ApiError) || error.status !== 403) return null;
  const parsed = planLimitErrorSchema.safeParse(error.body);
  return parsed.success ? parsed.data : null;
}

/**
 * The upgrade prompt shown where a plan can refuse an action: the server's sentence and a link to Plan & Billing.
 * Renders nothing unless `error` is a plan's refusal (or a `detail` of the screen's own is given, for what the
 * screen knows without a refusal), so a screen can pass any error it holds.
 */
export function PlanLimitNotice({ error, detail }: { error?: unknown; detail?: string }) {
  const refusal = planLimitOf(error);
  const text = refusal?.detail ?? detail;
  const ref = useRef<HTMLDivElement>(null);
  // A refusal arrives below a long form (a dialog on a phone): bring it into view, where the button was pressed.
  const refused = refusal !== null;
  useEffect(() => {
    if (refused) ref.current?.scrollIntoView?.({ block: 'nearest' });
  }, [refused, error]);
  if (!text) return null;
  return (
    <Alert.Root ref={ref} status="warning" data-testid="plan-limit" data-plan-limit={refusal?.plan_limit} alignItems={{ base: 'flex-start', sm: 'center' }} flexWrap="wrap" gap="3">
      <Alert.Indicator />
      <Alert.Content flex="1" minW="48">
        <Alert.Description>{text}</Alert.Description>
      </Alert.Content>
      <Button asChild size="sm" colorPalette="brand">
        <RouterLink to={PLAN_LIMIT_TEXTS.upgradeHref}>{PLAN_LIMIT_TEXTS.upgrade}</RouterLink>
      </Button>
    </Alert.Root>
  );
}
