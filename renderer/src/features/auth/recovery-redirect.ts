/** The desktop app's reset page, reached through its link scheme (the server accepts exactly this address). */
export const DESKTOP_RESET_PASSWORD = 'vibeeval://reset-password';

/**
 * Where the recovery mail's link returns: the desktop app itself (the OS opens it on /reset-password with the
 * fragment intact), or this site's /reset-password on the web.
 */
export function recoveryRedirect(kind: 'desktop' | 'web', publicOrigin: string): string {
  return kind === 'desktop' ? DESKTOP_RESET_PASSWORD : `${publicOrigin}/reset-password`;
}
