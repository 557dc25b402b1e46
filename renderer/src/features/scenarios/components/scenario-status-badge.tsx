import { Badge } from '@chakra-ui/react';
import type { ScenarioView } from '@common/scenarios';
import { scenarioStatusPalette } from '../scenario-format';

/** The scenario's status: Passed green, Failed red, anything else amber (spec section 4). */
export function ScenarioStatusBadge({ status }: { status: ScenarioView['status'] }) {
  return (
    <Badge colorPalette={scenarioStatusPalette(status)} variant="solid" size="md" whiteSpace="nowrap" data-testid="scenario-status" data-status={status}>
      {status}
    </Badge>
  );
}
