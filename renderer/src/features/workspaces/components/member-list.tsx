import { Badge, Box, Button, Card, Grid, HStack, Skeleton, Stack, Text } from '@chakra-ui/react';
import type { Workspace, WorkspaceMember } from '@common/workspaces';
import { Crown, UserMinus } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { ConfirmDeleteDialog } from '../../../ui/confirm-delete-dialog';
import { LoadErrorCard } from '../../../ui/load-error-card';
import { LoadMore } from '../../../ui/load-more';
import { formatLongDate } from '../../../ui/relative-date';
import { useMembers } from '../hooks/use-members';
import { useRemoveMember } from '../hooks/use-remove-member';
import { useTransferOwnership } from '../hooks/use-transfer-ownership';
import { texts } from '../texts';
import { TableHeaderRow } from '../../../ui/table-header-row';

type PendingAction = { kind: 'remove' | 'transfer'; member: WorkspaceMember };

const columns = { base: '1fr', md: '3fr 1fr 1.4fr auto' };

/** The workspace's members (email, role, joined); the owner also gets Remove and Make owner, each confirmed. */
export function MemberList({ workspace, userId }: { workspace: Workspace; userId: string }) {
  const list = useMembers(workspace.id);
  const remove = useRemoveMember(workspace.id);
  const transfer = useTransferOwnership(workspace.id);
  const [pending, setPending] = useState<PendingAction | null>(null);
  const isOwner = workspace.role === 'owner';

  if (list.isError && !list.data) {
    return <LoadErrorCard problem={texts.loadMembersFailed} reason={list.error.message} actionLabel={texts.retry} onAction={() => void list.refetch()} />;
  }
  const busy = pending?.kind === 'remove' ? remove.isPending : transfer.isPending;
  const confirm = () => {
    if (!pending) return;
    const mutation = pending.kind === 'remove' ? remove : transfer;
    mutation.mutate(pending.member.user_id, { onSettled: () => setPending(null) });
  };
  return (
    <Stack gap="3">
      <Card.Root variant="outline" overflow="hidden">
        {list.isLoading ? (
          <LoadingRows />
        ) : (
          <Box role="table" aria-label={texts.membersTitle}>
            <HeaderRow />
            {list.members.map((member) => (
              <MemberRow
                key={member.user_id}
                member={member}
                isSelf={member.user_id === userId}
                canManage={isOwner && member.role !== 'owner'}
                onAction={(kind) => setPending({ kind, member })}
              />
            ))}
          </Box>
        )}
      </Card.Root>
      <LoadMore query={list} testId="load-more-members" />
      <ConfirmDeleteDialog
        title={pending?.kind === 'transfer' ? texts.transferTitle : texts.removeTitle}
        question={pending?.kind === 'transfer' ? texts.transferQuestion : texts.removeQuestion}
        name={pending?.member.email ?? ''}
        open={pending !== null}
        onOpenChange={(open) => !open && setPending(null)}
        deleting={busy}
        confirmLabel={pending?.kind === 'transfer' ? texts.transferButton : texts.removeButton}
        busyLabel={pending?.kind === 'transfer' ? texts.transferring : texts.removing}
        onConfirm={confirm}
      />
    </Stack>
  );
}

function HeaderRow() {
  return (
    <TableHeaderRow columns={columns}>
      <Text role="columnheader">{texts.colEmail}</Text>
      <Text role="columnheader">{texts.colRole}</Text>
      <Text role="columnheader">{texts.colJoined}</Text>
      <Box role="columnheader" minW="20">
        <Box srOnly>{texts.colActions}</Box>
      </Box>
    </TableHeaderRow>
  );
}

function MemberRow({ member, isSelf, canManage, onAction }: { member: WorkspaceMember; isSelf: boolean; canManage: boolean; onAction: (kind: PendingAction['kind']) => void }) {
  return (
    <Grid
      role="row"
      templateColumns={columns}
      gap={{ base: '1', md: '3' }}
      px="4"
      py="3"
      borderBottomWidth="1px"
      _last={{ borderBottomWidth: 0 }}
      alignItems="center"
      data-testid="member-row"
    >
      <Text role="cell" fontWeight="medium" wordBreak="break-word">
        {member.email}{' '}
        {isSelf && (
          <Text as="span" color="fg.muted" fontWeight="normal">
            {texts.you}
          </Text>
        )}
      </Text>
      <Cell label={texts.colRole}>
        <Badge variant={member.role === 'owner' ? 'solid' : 'subtle'} colorPalette={member.role === 'owner' ? 'brand' : 'gray'}>
          {texts.roleNames[member.role]}
        </Badge>
      </Cell>
      <Cell label={texts.colJoined}>{formatLongDate(member.joined_at)}</Cell>
      <HStack role="cell" gap="2" mt={{ base: '2', md: 0 }} minW="20" flexWrap="wrap">
        {canManage && (
          <>
            <Button size="sm" variant="outline" onClick={() => onAction('transfer')} aria-label={`${texts.transferButton}: ${member.email}`}>
              <Crown aria-hidden /> {texts.transferButton}
            </Button>
            <Button size="sm" variant="outline" colorPalette="red" onClick={() => onAction('remove')} aria-label={`${texts.removeButton} ${member.email}`}>
              <UserMinus aria-hidden /> {texts.removeButton}
            </Button>
          </>
        )}
      </HStack>
    </Grid>
  );
}

function Cell({ label, children }: { label: string; children: ReactNode }) {
  return (
    <HStack role="cell" gap="2" fontSize="sm" minW="0">
      <Text as="span" color="fg.muted" hideFrom="md" minW="20">
        {label}
      </Text>
      <Text as="span">{children}</Text>
    </HStack>
  );
}

function LoadingRows() {
  return (
    <Stack gap="3" p="4" aria-busy="true" aria-label="Loading members">
      {Array.from({ length: 3 }, (_, index) => (
        <HStack key={index} gap="4">
          <Skeleton h="5" flex="3" />
          <Skeleton h="4" flex="1" />
          <Skeleton h="4" flex="1" hideBelow="md" />
        </HStack>
      ))}
    </Stack>
  );
}
