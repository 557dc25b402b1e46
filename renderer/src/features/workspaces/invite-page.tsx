import { Button, Card, Container, DataList, Heading, HStack, Spinner, Stack, Text } from '@chakra-ui/react';
import { invitationTokenSchema, WORKSPACE_TEXTS } from '@common/workspaces';
import { useEffect } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router-dom';
import { useSupabase } from '../../app/services';
import { ApiError } from '../../api/http';
import { formatLongDate } from '../../ui/relative-date';
import { useDocumentTitle } from '../../ui/use-document-title';
import { useAuth } from '../../app/auth-context';
import { useAcceptInvitation } from './hooks/use-accept-invitation';
import { useInvitationPreview } from './hooks/use-invitation-preview';
import { invitationTokenOf } from './paths';
import { keepPendingInvitation } from './pending-invitation';
import { texts } from './texts';

/** /invite?token=vbi_…: what the invitation joins, and 'Join workspace'; signed out, a way to sign in and come back. */
export function InvitePage() {
  useDocumentTitle(texts.invitationPageTitle);
  const location = useLocation();
  const { user, loading } = useAuth();
  const raw = invitationTokenOf(location.search);
  const token = raw && invitationTokenSchema.safeParse(raw).success ? raw : null;
  useEffect(() => {
    if (token && !loading && !user) keepPendingInvitation(token);
  }, [token, loading, user]);

  let body;
  if (!token) body = <Refusal message={raw ? texts.invitationInvalid : texts.missingToken} />;
  else if (loading) body = <Waiting />;
  else if (!user) body = <SignInFirst />;
  else body = <Invitation token={token} />;
  return (
    <Container maxW="lg" py={{ base: '10', md: '16' }} px="4">
      <Card.Root variant="outline" bg="bg">
        <Card.Body>
          <Stack gap="5">
            <Heading as="h1" size="xl">
              {texts.invitationPageTitle}
            </Heading>
            {body}
          </Stack>
        </Card.Body>
      </Card.Root>
    </Container>
  );
}

function Waiting() {
  return (
    <HStack gap="3" color="fg.muted" role="status">
      <Spinner size="sm" /> <Text>{texts.invitePreviewLoading}</Text>
    </HStack>
  );
}

function SignInFirst() {
  return (
    <Stack gap="4" data-testid="invite-sign-in">
      <Text>{texts.signInToJoin}</Text>
      <HStack gap="3" flexWrap="wrap">
        <Button asChild colorPalette="brand">
          <RouterLink to="/login">{texts.signIn}</RouterLink>
        </Button>
        <Button asChild variant="outline">
          <RouterLink to="/signup">{texts.signUp}</RouterLink>
        </Button>
      </HStack>
    </Stack>
  );
}

function Invitation({ token }: { token: string }) {
  const accept = useAcceptInvitation();
  // Once joined, the invitation is used: asking for its preview again (the switch refetches every open query) would
  // only earn a 410 in the console on the way to the dashboard.
  const preview = useInvitationPreview(token, { enabled: accept.isIdle });
  if (preview.isLoading) return <Waiting />;
  if (preview.isError || !preview.data) return <Refusal message={messageOf(preview.error)} token={token} />;
  if (accept.isError) return <Refusal message={messageOf(accept.error)} token={token} />;
  const invitation = preview.data;
  return (
    <Stack gap="5" data-testid="invitation-preview">
      <Text fontSize="lg" fontWeight="semibold">
        {texts.invitationFor(invitation.workspace_name)}
      </Text>
      <DataList.Root orientation="horizontal" size="md">
        <DataList.Item>
          <DataList.ItemLabel>{texts.invitedBy}</DataList.ItemLabel>
          <DataList.ItemValue wordBreak="break-word">{invitation.invited_by}</DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>{texts.invitedAddress}</DataList.ItemLabel>
          <DataList.ItemValue wordBreak="break-word">{invitation.email}</DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>{texts.inviteExpires}</DataList.ItemLabel>
          <DataList.ItemValue>{formatLongDate(invitation.expires_at)}</DataList.ItemValue>
        </DataList.Item>
      </DataList.Root>
      <Button colorPalette="brand" alignSelf="flex-start" loading={accept.isPending} loadingText={texts.joining} onClick={() => accept.mutate(token)}>
        {texts.acceptButton}
      </Button>
    </Stack>
  );
}

function messageOf(error: unknown): string {
  return error instanceof ApiError ? error.message : texts.invitationInvalid;
}

/** A refusal in its own words, and the way on: another address to sign in with, or the dashboard. */
function Refusal({ message, token }: { message: string; token?: string }) {
  return (
    <Stack gap="4" role="alert" data-testid="invitation-refusal">
      <Text>{message}</Text>
      <HStack gap="3" flexWrap="wrap">
        {token && message === WORKSPACE_TEXTS.invitationOtherEmail && <SignInAsOther token={token} />}
        <Button asChild variant={token && message === WORKSPACE_TEXTS.invitationOtherEmail ? 'outline' : 'solid'} colorPalette="brand">
          <RouterLink to="/dashboard/projects">{texts.toDashboard}</RouterLink>
        </Button>
      </HStack>
    </Stack>
  );
}

function SignInAsOther({ token }: { token: string }) {
  const supabase = useSupabase();
  const navigate = useNavigate();
  async function switchAccount() {
    keepPendingInvitation(token);
    await supabase.auth.signOut({ scope: 'local' });
    await navigate('/login');
  }
  return (
    <Button colorPalette="brand" onClick={() => void switchAccount()}>
      {texts.signOutAndSwitch}
    </Button>
  );
}
