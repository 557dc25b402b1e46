import { Badge, HStack, Menu, Portal, Spinner, Stack, Text } from '@chakra-ui/react';
import type { Workspace } from '@common/workspaces';
import { Plus } from 'lucide-react';
import type { ReactElement } from 'react';
import type { useWorkspaces } from '../hooks/use-workspaces';
import { texts } from '../texts';
import { workspaceLabel } from '../workspace-label';

const CREATE = '__create__';

function WorkspaceOption({ workspace }: { workspace: Workspace }) {
  return (
    <Stack gap="0" minW="0" flex="1">
      <HStack gap="2" minW="0">
        <Text truncate fontWeight="medium">
          {workspaceLabel(workspace)}
        </Text>
        {/* The personal workspace is called 'Personal'; marked only when it carries another name. */}
        {workspace.personal && workspace.name !== texts.personalName && (
          <Badge size="sm" variant="subtle">
            {texts.personalName}
          </Badge>
        )}
      </HStack>
      <Text fontSize="xs" color="fg.muted">
        {texts.roleNames[workspace.role]}
      </Text>
    </Stack>
  );
}

interface WorkspaceMenuProps {
  /** The switcher's button, made the menu's trigger. */
  trigger: ReactElement;
  list: ReturnType<typeof useWorkspaces>;
  currentId: string | null | undefined;
  onChoose: (id: string) => void;
  onCreate: () => void;
}

/**
 * The switcher's menu: the caller's workspaces and 'Create workspace'. Open when it first mounts (it is loaded on the
 * first click). Its trigger sits in the sticky top bar, so the menu is placed `fixed`, as the bar is: placed in the
 * page (`absolute`), a scroll while it is open moved it with the page until the next frame placed it back under the
 * bar, and a click made in that frame (pressed on an item, released where the item had been) selected nothing.
 */
export function WorkspaceMenu({ trigger, list, currentId, onChoose, onCreate }: WorkspaceMenuProps) {
  return (
    <Menu.Root defaultOpen onSelect={(details) => details.value === CREATE && onCreate()} positioning={{ placement: 'bottom-start', strategy: 'fixed' }}>
      <Menu.Trigger asChild>{trigger}</Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content minW="64" maxW="calc(100vw - 1.5rem)" data-testid="workspace-menu">
            <Menu.RadioItemGroup value={currentId ?? ''} onValueChange={(details) => onChoose(details.value)}>
              <Menu.ItemGroupLabel>{texts.yourWorkspaces}</Menu.ItemGroupLabel>
              {list.isLoading && (
                <HStack px="2" py="1.5" color="fg.muted" fontSize="sm">
                  <Spinner size="xs" /> <Text>{texts.switcherLabel}…</Text>
                </HStack>
              )}
              {list.isError && (
                <Text px="2" py="1.5" fontSize="sm" color="fg.error" role="alert">
                  {list.error.message}
                </Text>
              )}
              {list.workspaces.map((workspace) => (
                <Menu.RadioItem key={workspace.id} value={workspace.id} data-testid="workspace-option">
                  <WorkspaceOption workspace={workspace} />
                  <Menu.ItemIndicator />
                </Menu.RadioItem>
              ))}
            </Menu.RadioItemGroup>
            <Menu.Separator />
            <Menu.Item value={CREATE}>
              <Plus aria-hidden /> {texts.createWorkspace}
            </Menu.Item>
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}
