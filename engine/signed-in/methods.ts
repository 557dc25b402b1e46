// The shape every way of signing in shares (Supabase Auth, Firebase Auth, the site's JSON login API, its login form):
// how a test account signs in, refreshes and signs out, and what its session lets a request carry. Detection (where
// the site shows the method) is each method's own; this side holds the session and the secrets to mask. Raw tokens
// and cookies live only in a MethodSession on the scan's main thread: never in a result, an exchange kept, or a check.
import type { ScanAccount, SignInMethod } from '../../common/scan-accounts';
import type { Fetcher } from '../retrieval/fetcher';

/** What a signed-in account's requests carry: a bearer token, cookies, or both. */
export interface SessionCredential {
  /** The token sent as `Authorization: Bearer …` (Supabase access token, Firebase ID token, the API's token). */
  bearer?: string;
  /** The `Cookie` header value of a cookie session (`name=value; name2=value2`). */
  cookie?: string;
}

/** One account's live session with one sign-in method. */
export interface MethodSession {
  credential: SessionCredential;
  /** The user id the sign-in returned (Supabase `user.id`, Firebase `localId`, the API's `user.id`), if any. */
  userId?: string;
  /** When the credential expires (ms since the epoch, per the scan's clock); absent: it does not say. */
  expiresAt?: number;
  /** The token that renews the credential, for methods that refresh (Supabase, Firebase). */
  refreshToken?: string;
  /** Every secret of the session, for masking (tokens, refresh tokens, cookie values). */
  secrets: string[];
}

export type MethodAnswer = { ok: true; session: MethodSession } | { ok: false; reason: string };

/** A sign-in method bound to where the site uses it (a Supabase project and key, a login URL …). */
export interface SignInMethodImpl {
  readonly method: SignInMethod;
  /** Why this login cannot be used with the method (an email-only method given a user name), or undefined. */
  refuseLogin(login: string): string | undefined;
  /** Signs in: the only write a passive scan sends besides refresh and sign-out. */
  signIn(fetcher: Fetcher, account: ScanAccount, now: () => number): Promise<MethodAnswer>;
  /** A new credential for an expiring session; absent when the method has none (cookie sessions). */
  refresh?(fetcher: Fetcher, session: MethodSession, now: () => number): Promise<MethodAnswer>;
  /** Ends the session on the server; absent when the method has no server-side sign-out (Firebase). */
  signOut?(fetcher: Fetcher, session: MethodSession): Promise<void>;
  /** Frees what the method holds for the scan (the login form's browser), after every sign-out. */
  close?(): Promise<void>;
}

/** The headers of a request sent with the credential (any Authorization or Cookie it had replaced). */
export function withCredential(headers: Record<string, string> | undefined, credential: SessionCredential): Record<string, string> {
  const kept = Object.fromEntries(Object.entries(headers ?? {}).filter(([name]) => !/^(?:authorization|cookie)$/i.test(name)));
  return {
    ...kept,
    ...(credential.bearer ? { Authorization: `Bearer ${credential.bearer}` } : {}),
    ...(credential.cookie ? { Cookie: credential.cookie } : {}),
  };
}

/** "Not signed in: <who> takes an email address, and this login is a user name." */
export const needsEmail = (who: string): string => `Not signed in: ${who} takes an email address, and this login is a user name.`;

/** The body of a JSON answer as an object, or undefined. */
export function jsonObject(body: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
