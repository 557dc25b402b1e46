import { Button, Card, Flex, Text } from '@chakra-ui/react';
import type { Workspace } from '@common/workspaces';
import { LogOut } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDeleteDialog } from '../../../ui/confirm-delete-dialog';
import { useLeaveWorkspace } from '../hooks/use-leave-workspace';
import { texts } from '../texts';

/** A member's way out: 'Leave workspace', confirmed; then back to the personal workspace. */
export function LeaveWorkspace({ workspace }: { workspace: Workspace }) {
  const leave = useLeaveWorkspace(workspace.id);
  const [confirming, setConfirming] = useState(false);
  return (
    <Card.Root variant="outline">
      <Card.Body>
        <Flex gap="3" direction={{ base: 'column', sm: 'row' }} align={{ sm: 'center' }} justify="space-between">
          <Text color="fg.muted">{texts.memberView}</Text>
          <Button variant="outline" colorPalette="red" onClick={() => setConfirming(true)} flexShrink="0">
            <LogOut aria-hidden /> {texts.leaveButton}
          </Button>
        </Flex>
      </Card.Body>
      <ConfirmDeleteDialog
        title={texts.leaveTitle}
        question={texts.leaveQuestion}
        name={workspace.name}
        open={confirming}
        onOpenChange={setConfirming}
        deleting={leave.isPending}
        confirmLabel={texts.leaveButton}
        busyLabel={texts.leaving}
        onConfirm={() => leave.mutate(undefined, { onSettled: () => setConfirming(false) })}
      />
    </Card.Root>
  );
}
