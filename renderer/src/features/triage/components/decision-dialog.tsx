import { Button, Field, Input, Stack, Text, Textarea } from '@chakra-ui/react';
import { MAX_REASON_CHARS, type DecisionKind } from '@common/triage';
import { useState, type FormEvent } from 'react';
import { useSetDecision } from '../hooks/use-set-decision';
import { TRIAGE_UI } from '../texts';
import { AppDialog } from '../../../ui/app-dialog';

/** The first day an expiry may name: tomorrow (the server takes the end of that day, UTC). */
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

/** Asks why a finding is a false positive or an accepted risk (and, for a risk, until when), then saves it. */
export function DecisionDialog({
  projectId,
  finding,
  decision,
  onClose,
}: {
  projectId: string;
  finding: { fingerprint: string; title: string };
  decision: DecisionKind;
  onClose: () => void;
}) {
  const save = useSetDecision(projectId);
  const [reason, setReason] = useState('');
  const [expiry, setExpiry] = useState('');
  const [error, setError] = useState<string | null>(null);
  const risk = decision === 'accepted_risk';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!reason.trim()) return setError(TRIAGE_UI.reasonRequired);
    const body = { decision, reason: reason.trim(), ...(risk && expiry ? { expires_at: expiry } : {}) };
    save.mutate({ fingerprint: finding.fingerprint, body }, { onSuccess: onClose });
  };

  return (
    <AppDialog
      open
      onOpenChange={(next) => !next && onClose()}
      size={{ base: 'full', md: 'md' }}
      form={{ onSubmit: submit }}
      testId="decision-dialog"
      title={risk ? TRIAGE_UI.acceptRiskTitle : TRIAGE_UI.falsePositiveTitle}
      subtitle={
        <Text fontSize="sm" fontWeight="medium" wordBreak="break-word">
          {finding.title}
        </Text>
      }
      description={TRIAGE_UI.dialogDescription}
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={save.isPending}>
            {TRIAGE_UI.cancel}
          </Button>
          <Button type="submit" colorPalette="brand" loading={save.isPending}>
            {TRIAGE_UI.save}
          </Button>
        </>
      }
    >
      <Stack gap="4">
        <Field.Root invalid={Boolean(error)} required>
          <Field.Label>
            {TRIAGE_UI.reason}
            <Field.RequiredIndicator />
          </Field.Label>
          <Textarea
            name="reason"
            rows={3}
            maxLength={MAX_REASON_CHARS}
            value={reason}
            onChange={(event) => {
              setReason(event.target.value);
              setError(null);
            }}
          />
          {error ? <Field.ErrorText>{error}</Field.ErrorText> : <Field.HelperText>{TRIAGE_UI.reasonHelp}</Field.HelperText>}
        </Field.Root>
        {risk && (
          <Field.Root>
            <Field.Label>{TRIAGE_UI.expiry}</Field.Label>
            <Input name="expires_at" type="date" min={tomorrow()} value={expiry} onChange={(event) => setExpiry(event.target.value)} />
            <Field.HelperText>{TRIAGE_UI.expiryHelp}</Field.HelperText>
          </Field.Root>
        )}
      </Stack>
    </AppDialog>
  );
}
