import { Badge, type BadgeProps } from '@chakra-ui/react';
import type { Grade, Severity } from '@common/scan';
import { projectStatusPalette, severityPalette } from './tones';

/** active, completed and archived in their own colours; any other status in amber (spec section 3). */
export function ProjectStatusBadge({ status, ...rest }: { status: string } & BadgeProps) {
  return (
    <Badge colorPalette={projectStatusPalette(status)} variant="subtle" textTransform="capitalize" data-testid="status-badge" {...rest}>
      {status}
    </Badge>
  );
}

/** A grade in the colour of the severity it is closest to: A is secure, F is critical. */
export function gradePalette(grade: Grade): string {
  const letter = grade.charAt(0);
  if (letter === 'A') return severityPalette('secure');
  if (letter === 'B') return severityPalette('low');
  if (letter === 'C') return severityPalette('medium');
  if (letter === 'D') return severityPalette('high');
  return severityPalette('critical');
}

export function GradeBadge({ grade, label = 'Grade', ...rest }: { grade: Grade; label?: string } & BadgeProps) {
  return (
    <Badge colorPalette={gradePalette(grade)} variant="solid" aria-label={`${label} ${grade}`} {...rest}>
      {grade}
    </Badge>
  );
}

export const SEVERITY_LABELS: Record<Severity, string> = {
  critical: 'Critical',
  high: 'High',
  medium: 'Medium',
  low: 'Low',
  info: 'Info',
};

export function SeverityBadge({ severity, ...rest }: { severity: Severity } & BadgeProps) {
  return (
    <Badge colorPalette={severityPalette(severity)} variant="solid" {...rest}>
      {SEVERITY_LABELS[severity]}
    </Badge>
  );
}
