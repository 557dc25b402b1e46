import { Button, Icon, Text } from '@chakra-ui/react';
import { Building2, ChevronsUpDown, User } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { useAuth } from '../../../app/auth-context';
import { useWorkspaces } from '../hooks/use-workspaces';
import { texts } from '../texts';
import { workspaceLabel } from '../workspace-label';
import { useCurrentWorkspace } from '../workspace-context';
import { landingAfterSwitch } from '../paths';
import { useOpenedOnce } from '../../../ui/use-opened-once';

// Loaded when first opened: the dashboard's first load does not carry the form.
const CreateWorkspaceDialog = lazy(() => import('./create-workspace-dialog').then((m) => ({ default: m.CreateWorkspaceDialog })));
const loadMenu = () => import('./workspace-menu');
const WorkspaceMenu = lazy(() => loadMenu().then((m) => ({ default: m.WorkspaceMenu })));
const preloadMenu = () => void loadMenu();

/**
 * The top bar's workspace switcher: the caller's workspaces (a choice empties the screen and opens its projects, or
 * stays on Members) and 'Create workspace' (which lands the same way).
 */
export function WorkspaceSwitcher({ disabled }: { disabled?: boolean }) {
  const { user } = useAuth();
  const { id, personalId, switchTo } = useCurrentWorkspace();
  const list = useWorkspaces({ enabled: Boolean(user) });
  const landOn = landingAfterSwitch(useLocation().pathname);
  const [creating, setCreating] = useState(false);
  const [menuWanted, setMenuWanted] = useState(false);
  const dialogWanted = useOpenedOnce(creating);
  const current = list.workspaces.find((workspace) => workspace.id === id);
  // Until the list names it, a shared workspace is 'Workspace' (not 'Personal', which it is not).
  const label = current ? workspaceLabel(current) : id === personalId ? texts.personalName : texts.switcherLabel;

  function select(value: string) {
    if (value !== id) void switchTo(value, landOn);
  }

  // The menu (its state machine is a sixth of the dashboard's first load) is loaded when first wanted, and opens then.
  const button = (
    <Button
      variant="ghost"
      size="sm"
      px="2"
      minW="0"
      maxW={{ base: '36', sm: '56' }}
      // Buttons keep their width by default: at 375 px a long name pushed Sign Out past the screen's edge.
      flexShrink="1"
      disabled={disabled || !user}
      aria-label={`${texts.switcherLabel}: ${label}. ${texts.switcherHint}`}
      aria-haspopup="menu"
      data-testid="workspace-switcher"
      onClick={() => setMenuWanted(true)}
      onPointerEnter={preloadMenu}
      onFocus={preloadMenu}
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
  );

  return (
    <>
      {menuWanted ? (
        <Suspense fallback={button}>
          <WorkspaceMenu trigger={button} list={list} currentId={id} onChoose={select} onCreate={() => setCreating(true)} />
        </Suspense>
      ) : (
        button
      )}
      {dialogWanted && (
        <Suspense fallback={null}>
          <CreateWorkspaceDialog open={creating} onOpenChange={setCreating} landOn={landOn} />
        </Suspense>
      )}
    </>
  );
}
