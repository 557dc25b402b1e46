import { z } from 'zod';
import { TIERS } from './billing';
import { LAST_WORKSPACE_PATH, WORKSPACE_NAME_MAX, WORKSPACE_ROLES, WORKSPACE_TEXTS } from './workspace-constants';

// Workspaces (team mode). Every record (projects, scans, scenarios, reports, events, webhooks, API keys, continuous
// builds) belongs to a workspace; its members share them. Every user has a personal workspace (its id is the user's
// id) that cannot be left or shared. A request acts in the workspace named by the X-Vibeeval-Workspace header, or in
// the caller's personal workspace without it; a workspace the caller is not a member of answers 404, like any
// record of someone else's.

export * from './workspace-constants';

export const workspaceNameSchema = z
  .string({ message: WORKSPACE_TEXTS.nameRequired })
  .trim()
  .min(1, WORKSPACE_TEXTS.nameRequired)
  .max(WORKSPACE_NAME_MAX, WORKSPACE_TEXTS.nameTooLong)
  // eslint-disable-next-line no-control-regex -- refusing control characters is the point
  .refine((value) => !/[\u0000-\u001f\u007f]/.test(value), 'Workspace name cannot contain control characters');

/** POST /workspaces and PATCH /workspace/{id} body. */
export const workspaceBodySchema = z.object({ name: workspaceNameSchema }).strict();
export type WorkspaceBody = z.infer<typeof workspaceBodySchema>;

/** A workspace as its members see it (GET /workspaces, GET /workspace/{id}). */
export const workspaceSchema = z.object({
  id: z.string().uuid(),
  name: z.string(),
  personal: z.boolean(),
  /** The caller's role in it. */
  role: z.enum(WORKSPACE_ROLES),
  owner_id: z.string().uuid(),
  /** The workspace's plan: its owner's. */
  tier: z.enum(TIERS),
  /** Seats in use (members plus open invitations) and the plan's limit (null: no limit). */
  seats: z.object({ used: z.number().int(), limit: z.number().int().nullable() }),
  created_at: z.string(),
});
export type Workspace = z.infer<typeof workspaceSchema>;

/** GET /workspace/{id}/members (paginated, owner first, then by joining time). */
export const workspaceMemberSchema = z.object({
  user_id: z.string().uuid(),
  email: z.string(),
  role: z.enum(WORKSPACE_ROLES),
  joined_at: z.string(),
});
export type WorkspaceMember = z.infer<typeof workspaceMemberSchema>;

/** POST /workspace/{id}/invitations body (owner only). */
export const invitationBodySchema = z.object({ email: z.string().trim().toLowerCase().max(254, WORKSPACE_TEXTS.emailInvalid).email(WORKSPACE_TEXTS.emailInvalid) }).strict();

/** An open invitation (GET /workspace/{id}/invitations, owner only; POST answers 201 with it). */
export const invitationSchema = z.object({
  id: z.string().uuid(),
  email: z.string(),
  expires_at: z.string(),
  created_at: z.string(),
});
export type Invitation = z.infer<typeof invitationSchema>;

/** The secret of an invitation link: `vbi_` and 43 base64url characters (256 bits). */
export const invitationTokenSchema = z.string().regex(/^vbi_[A-Za-z0-9_-]{43}$/, WORKSPACE_TEXTS.invitationInvalid);

/** POST /invitations/preview and POST /invitations/accept body (signed in as the invited address). */
export const invitationTokenBodySchema = z.object({ token: invitationTokenSchema }).strict();

/** POST /invitations/preview answer: what accepting would join. */
export const invitationPreviewSchema = z.object({
  workspace_name: z.string(),
  invited_by: z.string(),
  email: z.string(),
  expires_at: z.string(),
});
export type InvitationPreview = z.infer<typeof invitationPreviewSchema>;

/** POST /workspace/{id}/transfer body (owner only): the member who becomes owner. */
export const transferBodySchema = z.object({ user_id: z.string().uuid() }).strict();

/**
 * GET /workspaces/last answer and PUT /workspaces/last body: the workspace the user last chose, kept by the server so
 * a sign-in on another device (or a browser whose storage was cleared) starts there. GET answers the personal
 * workspace (the user's id) when none was chosen or the user is no longer a member of the one chosen.
 */
export const lastWorkspaceSchema = z.object({ workspace_id: z.string().uuid() }).strict();

/**
 * The workspace routes (all signed in, product API scope). The invitation link in the mail is
 * `<origin>/invite?token=vbi_…` (the renderer's page, which posts the token to /invitations/accept).
 */
export const WORKSPACE_PATHS = {
  list: '/workspaces', // GET (paginated) · POST {name} → 201 workspace
  last: LAST_WORKSPACE_PATH, // GET → {workspace_id} · PUT {workspace_id} (a member) → 204
  one: '/workspace/:id', // GET · PATCH {name} (owner) · DELETE (owner, not personal) → 204
  members: '/workspace/:id/members', // GET (paginated)
  member: '/workspace/:id/members/:userId', // DELETE (owner; not the owner) → 204
  leave: '/workspace/:id/leave', // POST → 204 (a member, not the owner, not personal)
  transfer: '/workspace/:id/transfer', // POST {user_id} (owner) → 200 workspace
  invitations: '/workspace/:id/invitations', // GET (owner, paginated) · POST {email} (owner) → 201 invitation
  invitation: '/workspace/:id/invitations/:invitationId', // DELETE (owner) → 204
  preview: '/invitations/preview', // POST {token} → 200 preview
  accept: '/invitations/accept', // POST {token} → 200 workspace
} as const;
