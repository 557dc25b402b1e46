import { List, Text } from '@chakra-ui/react';
import type { Severity } from '@common/scan';
import { SeverityBadge } from '../../../ui/badges';

/** What a short finding line shows: its severity, title and address. */
export interface FindingLine {
  fingerprint: string;
  severity: Severity;
  title: string;
  url: string;
}

/** Findings as one line each (a diff's new, fixed or unchanged ones; the fixed ones struck through). */
export function FindingList({ findings, struck = false, itemTestId }: { findings: FindingLine[]; struck?: boolean; itemTestId?: string }) {
  return (
    <List.Root gap="2" variant="plain">
      {findings.map((finding) => (
        <List.Item key={finding.fingerprint} display="flex" gap="2" alignItems="baseline" flexWrap="wrap" data-testid={itemTestId}>
          <SeverityBadge severity={finding.severity} variant="subtle" />
          <Text as="span" textDecoration={struck ? 'line-through' : undefined} color={struck ? 'fg.muted' : undefined}>
            {finding.title}
          </Text>
          <Text as="span" fontSize="xs" color="fg.muted" wordBreak="break-all">
            {finding.url}
          </Text>
        </List.Item>
      ))}
    </List.Root>
  );
}
