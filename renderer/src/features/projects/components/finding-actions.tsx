import { Badge, Button, HStack, Stack, Text } from '@chakra-ui/react';
import type { Finding } from '@common/scan';
import { RefreshCw } from 'lucide-react';
import { CopyButton } from '../../../ui/code-block';
import { formatRelativeDate } from '../../../ui/relative-date';
import { TriageActions } from '../../triage';
import { useRecheckFinding } from '../hooks/use-recheck-finding';
import { texts } from '../texts';

const BADGE_PALETTE = { fixed: 'green', still_there: 'orange', unknown: 'gray' } as const;

/** Under a finding: its fix prompt to copy, Check again (with its last answer), and the triage buttons. */
export function FindingActions({ projectId, finding, prompt }: { projectId: string; finding: Finding; prompt: () => string }) {
  const recheck = useRecheckFinding(projectId, finding.fingerprint);
  const answer = recheck.data;
  return (
    <Stack>
      <HStack gap="2" wrap="wrap">
        <CopyButton value={prompt()} label={texts.copyFixPrompt} copiedLabel={texts.fixPromptCopied} failure={texts.copyFixPromptFailed} />
        <Button size="xs" variant="outline" onClick={() => recheck.mutate()} loading={recheck.isPending} loadingText={texts.checkingAgain}>
          <RefreshCw aria-hidden />
          {texts.checkAgain}
        </Button>
        <TriageActions projectId={projectId} finding={finding} />
      </HStack>
      {answer?.status && (
        <HStack gap="2" wrap="wrap" fontSize="xs" data-testid="recheck-answer">
          <Badge colorPalette={BADGE_PALETTE[answer.status]} variant="subtle">
            {texts.recheckBadge[answer.status]}
          </Badge>
          <Text color="fg.muted">
            Checked again {formatRelativeDate(answer.checked_at)}
            {answer.reason ? `: ${answer.reason}` : ''}
          </Text>
        </HStack>
      )}
    </Stack>
  );
}
