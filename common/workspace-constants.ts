// The workspaces' constants and texts, apart from their schemas: the app's shell (its API client) needs the header
// and the texts on every page, and the public pages load no schema library.

/** GET and PUT: the workspace the user chose last (WORKSPACE_PATHS.last), asked at every sign-in. */
export const LAST_WORKSPACE_PATH = '/workspaces/last';

/** Request header naming the workspace a product API call acts in. */
export const WORKSPACE_HEADER = 'x-vibeeval-workspace';

export const WORKSPACE_ROLES = ['owner', 'member'] as const;
export type WorkspaceRole = (typeof WORKSPACE_ROLES)[number];

/** An invitation's lifetime. */
export const INVITATION_TTL_HOURS = 72;
/** Invitations a workspace may send in an hour (mail is not free to send). */
export const INVITATIONS_PER_HOUR = 20;
export const WORKSPACE_NAME_MAX = 60;

/** Page sizes of the workspace lists (default and maximum per call). */
export const WORKSPACE_PAGE_SIZES = {
  workspaces: { fallback: 50, max: 200 },
  members: { fallback: 50, max: 200 },
  invitations: { fallback: 50, max: 200 },
} as const;

/** Texts of the screens and the API's refusals, word for word. */
export const WORKSPACE_TEXTS = {
  notFound: 'Workspace not found',
  nameRequired: 'Workspace name is required',
  nameTooLong: `Workspace name cannot exceed ${WORKSPACE_NAME_MAX} characters`,
  emailInvalid: 'Please enter a valid email address',
  ownerOnly: 'Only the workspace owner can do this',
  personalNotShared: 'Your personal workspace cannot be shared; create a workspace to invite colleagues',
  personalNotLeft: 'You cannot leave your personal workspace',
  ownerCannotLeave: 'Transfer ownership to another member before leaving',
  alreadyMember: 'This person is already a member of the workspace',
  alreadyInvited: 'An invitation to this address is already open',
  memberNotFound: 'Member not found',
  invitationNotFound: 'Invitation not found',
  invitationInvalid: 'This invitation link is invalid or has expired',
  invitationUsed: 'This invitation has already been used',
  invitationOtherEmail: 'This invitation was sent to another email address; sign in with that address to accept it',
  invitationsTooMany: 'Too many invitations sent from this workspace; try again later',
  transferToMember: 'Ownership can only pass to a member of the workspace',
  /** Screens. */
  switcherLabel: 'Workspace',
  personalName: 'Personal',
  createWorkspace: 'Create workspace',
  membersTitle: 'Members',
  inviteTitle: 'Invite a colleague',
  inviteButton: 'Send invitation',
  invitationSent: 'Invitation sent',
  leaveButton: 'Leave workspace',
  removeButton: 'Remove',
  transferButton: 'Make owner',
  acceptButton: 'Join workspace',
} as const;
