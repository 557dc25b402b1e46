import { Button, HStack } from '@chakra-ui/react';
import type { DecisionKind } from '@common/triage';
import { useState } from 'react';
import { TRIAGE_UI } from '../texts';
import { DecisionDialog } from './decision-dialog';

/** A finding's triage buttons: 'Mark as false positive' and 'Accept risk', each asking for the reason. */
export function TriageActions({ projectId, finding }: { projectId: string; finding: { fingerprint: string; title: string } }) {
  const [deciding, setDeciding] = useState<DecisionKind | null>(null);
  return (
    <HStack gap="2" wrap="wrap">
      <Button size="xs" variant="outline" onClick={() => setDeciding('false_positive')}>
        {TRIAGE_UI.markFalsePositive}
      </Button>
      <Button size="xs" variant="outline" onClick={() => setDeciding('accepted_risk')}>
        {TRIAGE_UI.acceptRisk}
      </Button>
      {deciding && <DecisionDialog projectId={projectId} finding={finding} decision={deciding} onClose={() => setDeciding(null)} />}
    </HStack>
  );
}
