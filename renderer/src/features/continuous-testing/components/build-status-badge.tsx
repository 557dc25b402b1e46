import { Badge, type BadgeProps } from '@chakra-ui/react';
import type { ContinuousBuild } from '@common/continuous';
import { BUILD_STATUS_VIEW } from '../continuous-format';

/** A build's status: success green, warning orange, error red, grey 'Pending' (subtle: solid grey reads as black) until its re-scan judges it. */
export function BuildStatusBadge({ status, ...rest }: { status: ContinuousBuild['status'] } & BadgeProps) {
  const view = BUILD_STATUS_VIEW[status];
  return (
    <Badge colorPalette={view.palette} variant={status === 'other' ? 'subtle' : 'solid'} data-testid="build-status" data-status={status} {...rest}>
      {view.label}
    </Badge>
  );
}
