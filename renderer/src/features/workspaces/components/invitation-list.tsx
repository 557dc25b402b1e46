import { Button, Card, HStack, Heading, Skeleton, Stack, Text } from '@chakra-ui/react';
import type { Invitation } from '@common/workspaces';
import { MailX } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDeleteDialog } from '../../../ui/confirm-delete-dialog';
import { LoadErrorCard } from '../../../ui/load-error-card';
import { LoadMore } from '../../../ui/load-more';
import { formatLongDate } from '../../../ui/relative-date';
import { useInvitations } from '../hooks/use-invitations';
import { useRevokeInvitation } from '../hooks/use-revoke-invitation';
import { texts } from '../texts';

/** The owner's open invitations (address, expiry), each with Revoke (confirmed). */
export function InvitationList({ workspaceId }: { workspaceId: string }) {
  const list = useInvitations(workspaceId, { enabled: true });
  const revoke = useRevokeInvitation(workspaceId);
  const [revoking, setRevoking] = useState<Invitation | null>(null);
  return (
    <Card.Root variant="outline">
      <Card.Body>
        <Stack gap="3">
          <Heading as="h2" size="md">
            {texts.openInvitations}
          </Heading>
          {list.isError && !list.data ? (
            <LoadErrorCard problem={texts.loadInvitationsFailed} reason={list.error.message} actionLabel={texts.retry} onAction={() => void list.refetch()} />
          ) : list.isLoading ? (
            <Stack gap="2" aria-busy="true" aria-label="Loading invitations">
              <Skeleton h="5" />
              <Skeleton h="5" />
            </Stack>
          ) : list.invitations.length === 0 ? (
            <Text color="fg.muted">{texts.noInvitations}</Text>
          ) : (
            <Stack as="ul" gap="0" listStyleType="none" aria-label={texts.openInvitations}>
              {list.invitations.map((invitation) => (
                <HStack
                  as="li"
                  key={invitation.id}
                  justify="space-between"
                  gap="3"
                  py="2"
                  borderBottomWidth="1px"
                  _last={{ borderBottomWidth: 0 }}
                  flexWrap="wrap"
                  data-testid="invitation-row"
                >
                  <Stack gap="0" minW="0">
                    <Text fontWeight="medium" wordBreak="break-word">
                      {invitation.email}
                    </Text>
                    <Text fontSize="sm" color="fg.muted">
                      {texts.expires} {formatLongDate(invitation.expires_at)}
                    </Text>
                  </Stack>
                  <Button size="sm" variant="outline" colorPalette="red" onClick={() => setRevoking(invitation)} aria-label={`${texts.revoke} ${invitation.email}`}>
                    <MailX aria-hidden /> {texts.revoke}
                  </Button>
                </HStack>
              ))}
            </Stack>
          )}
          <LoadMore query={list} testId="load-more-invitations" />
        </Stack>
      </Card.Body>
      <ConfirmDeleteDialog
        title={texts.revokeTitle}
        question={texts.revokeQuestion}
        name={revoking?.email ?? ''}
        open={revoking !== null}
        onOpenChange={(open) => !open && setRevoking(null)}
        deleting={revoke.isPending}
        confirmLabel={texts.revoke}
        busyLabel={texts.revoking}
        onConfirm={() => revoking && revoke.mutate(revoking.id, { onSettled: () => setRevoking(null) })}
      />
    </Card.Root>
  );
}
