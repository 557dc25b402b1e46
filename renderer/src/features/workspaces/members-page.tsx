import { Skeleton, Stack } from '@chakra-ui/react';
import { DomainsSection } from '../domains';
import { LoadErrorCard } from '../../ui/load-error-card';
import { PageHeading } from '../../ui/page-heading';
import { InvitationList } from './components/invitation-list';
import { InviteForm } from './components/invite-form';
import { LeaveWorkspace } from './components/leave-workspace';
import { MemberList } from './components/member-list';
import { PersonalNotice } from './components/personal-notice';
import { RenameForm } from './components/rename-form';
import { SeatsSummary } from './components/seats-summary';
import { useWorkspace } from './hooks/use-workspace';
import { texts } from './texts';
import { useCurrentWorkspace } from './workspace-context';

/** /dashboard/members: the current workspace's members and seats (the owner invites, revokes, removes, transfers and renames; a member can leave), and its domains. */
export function MembersPage() {
  const { id, personalId } = useCurrentWorkspace();
  const workspace = useWorkspace(id);
  const data = workspace.data;
  return (
    <Stack gap="6">
      <PageHeading title={texts.membersTitle} subtitle={texts.membersSubtitle} />
      {workspace.isError && !data ? (
        <LoadErrorCard problem={texts.loadFailed} reason={workspace.error.message} actionLabel={texts.retry} onAction={() => void workspace.refetch()} />
      ) : !data || !personalId ? (
        <Stack gap="4" aria-busy="true" aria-label="Loading the workspace">
          <Skeleton h="24" />
          <Skeleton h="40" />
        </Stack>
      ) : data.personal ? (
        <PersonalNotice />
      ) : (
        <>
          {data.role === 'owner' && <RenameForm key={data.id} workspace={data} />}
          <SeatsSummary workspace={data} />
          {data.role === 'owner' && <InviteForm workspaceId={data.id} />}
          <MemberList workspace={data} userId={personalId} />
          {data.role === 'owner' ? <InvitationList workspaceId={data.id} /> : <LeaveWorkspace workspace={data} />}
        </>
      )}
      {/* Every workspace, personal ones too: the domains its active scans may run on. */}
      {data && <DomainsSection />}
    </Stack>
  );
}
