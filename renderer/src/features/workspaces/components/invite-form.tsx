import { Button, Field, Flex, Input } from '@chakra-ui/react';
import { invitationBodySchema } from '@common/workspaces';
import { Send } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../../api/http';
import { FormCard } from '../../../ui/form-card';
import { PlanLimitNotice, planLimitOf } from '../../../ui/plan-limit';
import { useInvite } from '../hooks/use-invite';
import { texts } from '../texts';

/** 'Invite a colleague' (owner): the address, checked as the server checks it; the plan's seats refusal shown with the upgrade prompt. */
export function InviteForm({ workspaceId }: { workspaceId: string }) {
  const invite = useInvite(workspaceId);
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = invitationBodySchema.safeParse({ email });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? texts.emailInvalid);
      return;
    }
    setError(null);
    invite.mutate(parsed.data.email, { onSuccess: () => setEmail('') });
  }

  // A plan's refusal gets the upgrade prompt; any other refusal (already a member, already invited, too many) its detail.
  const refusal = planLimitOf(invite.error) ? null : invite.error instanceof ApiError ? invite.error.message : invite.error ? texts.inviteFailed : null;
  const shown = error ?? refusal;
  return (
    <FormCard title={texts.inviteTitle} onSubmit={submit}>
      <Flex gap="3" direction={{ base: 'column', sm: 'row' }} align={{ sm: 'start' }}>
        <Field.Root flex="1" invalid={Boolean(shown)}>
          <Field.Label>{texts.emailLabel}</Field.Label>
          <Input
            type="email"
            name="invite-email"
            autoComplete="off"
            value={email}
            placeholder={texts.emailPlaceholder}
            onChange={(e) => {
              setEmail(e.target.value);
              setError(null);
              if (invite.error) invite.reset();
            }}
          />
          {shown && <Field.ErrorText>{shown}</Field.ErrorText>}
        </Field.Root>
        <Button type="submit" colorPalette="brand" mt={{ sm: '6' }} loading={invite.isPending} loadingText={texts.sending}>
          <Send aria-hidden /> {texts.inviteButton}
        </Button>
      </Flex>
      <PlanLimitNotice error={invite.error} />
    </FormCard>
  );
}
