import { invitationTokenSchema } from '@common/workspaces';

// An invitation link opened while signed out: its token waits in sessionStorage (this tab only, gone with it)
// while the person signs in or signs up, and the dashboard sends them back to /invite with it.

export const PENDING_INVITATION_KEY = 'vibeeval-pending-invitation';

type SessionStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

function sessionStore(): SessionStore | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    return null;
  }
}

/** Keeps a well-formed token for after signing in. */
export function keepPendingInvitation(token: string, store: SessionStore | null = sessionStore()): void {
  if (!invitationTokenSchema.safeParse(token).success) return;
  try {
    store?.setItem(PENDING_INVITATION_KEY, token);
  } catch {
    // Without storage the person opens the mailed link again once signed in.
  }
}

/** The kept token, removed as it is read (it leads back to the invitation once), or null. */
export function takePendingInvitation(store: SessionStore | null = sessionStore()): string | null {
  try {
    const token = store?.getItem(PENDING_INVITATION_KEY) ?? null;
    store?.removeItem(PENDING_INVITATION_KEY);
    return token && invitationTokenSchema.safeParse(token).success ? token : null;
  } catch {
    return null;
  }
}

/** The invitation page's address for a token. */
export const invitationPagePath = (token: string) => `/invite?token=${encodeURIComponent(token)}`;
