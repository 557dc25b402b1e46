/**
 * Where supabase-js keeps the session: the keychain vault on the desktop (read by the main process too, for live
 * notifications), localStorage on the web.
 */
export const AUTH_STORAGE_KEY = 'vibeeval-auth-token';

/** Shown when the server has no Google client (GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET): by the server's redirect and by the sign-in pages. */
export const GOOGLE_NOT_CONFIGURED = 'Sign-in with Google is not configured on this server.';
