import { Button, EmptyState, VStack } from '@chakra-ui/react';
import { Users } from 'lucide-react';
import { useState } from 'react';
import { texts } from '../texts';
import { CreateWorkspaceDialog } from './create-workspace-dialog';
import { MEMBERS_PATH } from '../paths';

/** The personal workspace's members page: it cannot be shared; a workspace can be created to invite colleagues. */
export function PersonalNotice() {
  const [creating, setCreating] = useState(false);
  return (
    <>
      <EmptyState.Root borderWidth="1px" borderRadius="l3" bg="bg" data-testid="personal-workspace-notice">
        <EmptyState.Content>
          <EmptyState.Indicator>
            <Users />
          </EmptyState.Indicator>
          <VStack textAlign="center">
            <EmptyState.Title>{texts.personalTitle}</EmptyState.Title>
            <EmptyState.Description>{texts.personalNotShared}</EmptyState.Description>
          </VStack>
          <Button colorPalette="brand" onClick={() => setCreating(true)}>
            {texts.createWorkspace}
          </Button>
        </EmptyState.Content>
      </EmptyState.Root>
      <CreateWorkspaceDialog open={creating} onOpenChange={setCreating} landOn={MEMBERS_PATH} />
    </>
  );
}
