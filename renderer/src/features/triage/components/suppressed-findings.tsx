import { Accordion, Badge, Button, HStack, Stack, Text } from '@chakra-ui/react';
import type { SuppressedFinding } from '@common/scan';
import { DECISION_LABELS } from '@common/triage';
import { formatRelativeDate } from '../../../ui/relative-date';
import { useDecisions } from '../hooks/use-decisions';
import { useExportBaseline } from '../hooks/use-export-baseline';
import { useReopenFinding } from '../hooks/use-reopen-finding';
import { TRIAGE_UI } from '../texts';

/** The decided findings of the last scan, collapsed: what, who decided, when and why, with Reopen; and the baseline export. */
export function SuppressedFindings({ projectId, suppressed }: { projectId: string; suppressed: SuppressedFinding[] }) {
  const decisions = useDecisions(projectId, suppressed.length > 0);
  const reopen = useReopenFinding(projectId);
  const exportBaseline = useExportBaseline(projectId);
  const byFingerprint = new Map((decisions.data ?? []).map((decision) => [decision.fingerprint, decision]));
  return (
    <Stack gap="2" as="section" aria-label={TRIAGE_UI.suppressedTitle(suppressed.length)} data-testid="suppressed-findings">
      <HStack justify="space-between" gap="2" wrap="wrap">
        <Text fontSize="sm" color="fg.muted">
          {TRIAGE_UI.suppressedHelp}
        </Text>
        <Button size="xs" variant="outline" onClick={() => exportBaseline.mutate()} loading={exportBaseline.isPending}>
          {TRIAGE_UI.exportBaseline}
        </Button>
      </HStack>
      <Accordion.Root collapsible variant="enclosed" size="sm">
        <Accordion.Item value="suppressed">
          <Accordion.ItemTrigger cursor="pointer">
            <Text flex="1" fontWeight="medium">
              {TRIAGE_UI.suppressedTitle(suppressed.length)}
            </Text>
            <Accordion.ItemIndicator />
          </Accordion.ItemTrigger>
          <Accordion.ItemContent>
            <Accordion.ItemBody>
              <Stack gap="4">
                {suppressed.map((finding) => {
                  const decided = byFingerprint.get(finding.fingerprint);
                  return (
                    <Stack key={finding.fingerprint} gap="1" data-testid="suppressed-finding" borderBottomWidth="1px" pb="3">
                      <HStack gap="2" wrap="wrap" justify="space-between">
                        <HStack gap="2" wrap="wrap" minW="0">
                          <Badge variant="outline">{DECISION_LABELS[finding.suppression.decision]}</Badge>
                          <Text fontWeight="medium" wordBreak="break-word">
                            {finding.title}
                          </Text>
                        </HStack>
                        <Button size="xs" variant="ghost" onClick={() => reopen.mutate(finding.fingerprint)} loading={reopen.isPending && reopen.variables === finding.fingerprint}>
                          {TRIAGE_UI.reopen}
                        </Button>
                      </HStack>
                      <Text fontSize="xs" color="fg.muted" wordBreak="break-all">
                        {finding.url}
                      </Text>
                      <Text fontSize="sm" whiteSpace="pre-wrap" wordBreak="break-word">
                        {finding.suppression.reason}
                      </Text>
                      <Text fontSize="xs" color="fg.muted">
                        {decided && TRIAGE_UI.decidedBy(decided.decided_by.email ?? TRIAGE_UI.someone, formatRelativeDate(decided.decided_at))}
                        {finding.suppression.expires_at && ` · ${TRIAGE_UI.expires(new Date(finding.suppression.expires_at).toLocaleDateString())}`}
                      </Text>
                    </Stack>
                  );
                })}
              </Stack>
            </Accordion.ItemBody>
          </Accordion.ItemContent>
        </Accordion.Item>
      </Accordion.Root>
    </Stack>
  );
}
