import { List, Text } from '@chakra-ui/react';
import { distinguishingLines } from '@common/finding-rows';
import type { Severity } from '@common/scan';
import { SeverityBadge } from '../../../ui/badges';

/** What a short finding line shows: its severity, title and address. */
export interface FindingLine {
  fingerprint: string;
  severity: Severity;
  title: string;
  url: string;
  /** What was found, where the list has it: it tells apart the lines of one title and address. */
  detail?: string;
}

/** Findings as one line each (a diff's new, fixed or unchanged ones; the fixed ones struck through). */
export function FindingList({ findings, struck = false, itemTestId }: { findings: FindingLine[]; struck?: boolean; itemTestId?: string }) {
  const lines = distinguishingLines(findings);
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
          {lines.has(finding.fingerprint) && (
            <Text as="span" fontSize="xs" flexBasis="full" ps="1">
              {lines.get(finding.fingerprint)}
            </Text>
          )}
        </List.Item>
      ))}
    </List.Root>
  );
}
