import { Badge, Button, HStack, Icon, Menu, Portal, Spinner, Stack, Text } from '@chakra-ui/react';
import type { Workspace } from '@common/workspaces';
import { Building2, ChevronsUpDown, Plus, User } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { useAuth } from '../../auth/auth-context';
import { useWorkspaces } from '../hooks/use-workspaces';
import { texts } from '../texts';
import { useCurrentWorkspace } from '../workspace-context';
import { useOpenedOnce } from '../../../ui/use-opened-once';

const CREATE = '__create__';

/** A workspace's name; a personal one without a name of its own is 'Personal'. */
export function workspaceLabel(workspace: Pick<Workspace, 'name' | 'personal'>): string {
  return workspace.personal && !workspace.name ? texts.personalName : workspace.name;
}

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

// Loaded when first opened: the dashboard's first load does not carry the form.
const CreateWorkspaceDialog = lazy(() => import('./create-workspace-dialog').then((m) => ({ default: m.CreateWorkspaceDialog })));

/** The top bar's workspace switcher: the caller's workspaces (a choice empties the screen and opens its projects) and 'Create workspace'. */
export function WorkspaceSwitcher({ disabled }: { disabled?: boolean }) {
  const { user } = useAuth();
  const { id, personalId, switchTo } = useCurrentWorkspace();
  const list = useWorkspaces({ enabled: Boolean(user) });
  const [creating, setCreating] = useState(false);
  const dialogWanted = useOpenedOnce(creating);
  const current = list.workspaces.find((workspace) => workspace.id === id);
  // Until the list names it, a shared workspace is 'Workspace' (not 'Personal', which it is not).
  const label = current ? workspaceLabel(current) : id === personalId ? texts.personalName : texts.switcherLabel;

  function select(value: string) {
    if (value !== id) void switchTo(value);
  }

  return (
    <>
      <Menu.Root onSelect={(details) => details.value === CREATE && setCreating(true)} positioning={{ placement: 'bottom-start' }}>
        <Menu.Trigger asChild>
          <Button
            variant="ghost"
            size="sm"
            px="2"
            minW="0"
            maxW={{ base: '36', sm: '56' }}
            disabled={disabled || !user}
            aria-label={`${texts.switcherLabel}: ${label}. ${texts.switcherHint}`}
            data-testid="workspace-switcher"
          >
            {/* At 375 px the top bar has no room for the icon; the name says it. */}
            <Icon hideBelow="sm" aria-hidden="true">
              {current && !current.personal ? <Building2 /> : <User />}
            </Icon>
            <Text as="span" truncate>
              {label}
            </Text>
            <ChevronsUpDown aria-hidden />
          </Button>
        </Menu.Trigger>
        <Portal>
          <Menu.Positioner>
            <Menu.Content minW="64" maxW="calc(100vw - 1.5rem)" data-testid="workspace-menu">
              <Menu.RadioItemGroup value={id ?? ''} onValueChange={(details) => select(details.value)}>
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
      {dialogWanted && (
        <Suspense fallback={null}>
          <CreateWorkspaceDialog open={creating} onOpenChange={setCreating} />
        </Suspense>
      )}
    </>
  );
}
