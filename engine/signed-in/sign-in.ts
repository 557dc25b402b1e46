// Supabase password sign-in, refresh and sign-out, sent the way supabase-js sends them (the project's public key in
// `apikey` and as the bearer, JSON bodies). These three are the only requests of a passive scan that may write: they
// create and end the test account's own session, nothing else.
import type { ScanAccount } from '../../common/scan-accounts';
import type { Fetcher } from '../retrieval/fetcher';
import type { Exchange } from '../types';
import { needsEmail, type MethodAnswer, type MethodSession, type SignInMethodImpl } from './methods';

/** A signed-in account's session with one Supabase project. Raw tokens: never put them in a result. */
export interface SupabaseSession {
  accessToken: string;
  refreshToken: string;
  /** When the access token expires, in ms since the epoch (per the scan's clock). */
  expiresAt: number;
  userId: string;
}

export type SignInAnswer = { ok: true; session: SupabaseSession } | { ok: false; reason: string };

/** Where a project is and the public key its site uses. */
export interface SupabaseEndpoint {
  /** The project API's origin, e.g. https://abc.supabase.co. */
  projectUrl: string;
  apikey: string;
}

export const headersFor = (apikey: string, bearer = apikey): Record<string, string> => ({
  apikey,
  Authorization: `Bearer ${bearer}`,
  'Content-Type': 'application/json;charset=UTF-8',
  Accept: 'application/json',
});

/** Supabase's password grant takes an email; a user name cannot sign in there (supabase-js has no username login). */
export function canUsePasswordGrant(login: string): boolean {
  return login.includes('@');
}

function parseJson(body: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Why Supabase Auth refused, in its own words (GoTrue answers `error_description` or `msg`), bounded. */
export function refusal(exchange: Exchange, what: string): string {
  if (exchange.status === 0) return `${what} got no answer: ${exchange.error ?? 'no response'}.`;
  const body = parseJson(exchange.body) ?? {};
  const text = [body.error_description, body.msg, body.message].find((v): v is string => typeof v === 'string' && v.length > 0);
  const code = [body.error, body.error_code].find((v): v is string => typeof v === 'string' && v.length > 0);
  const said = text ? `"${text.slice(0, 200)}"` : 'no reason given';
  return `${what} was refused: HTTP ${exchange.status}${code ? ` ${code.slice(0, 60)}` : ''}, ${said}.`;
}

/** The session in a token answer (access_token, refresh_token, expires_in or expires_at, user.id). */
export function parseSession(exchange: Exchange, now: number): SupabaseSession | undefined {
  if (exchange.status !== 200) return undefined;
  const body = parseJson(exchange.body);
  const user = body?.user as { id?: unknown } | undefined;
  if (!body || typeof body.access_token !== 'string' || typeof body.refresh_token !== 'string' || typeof user?.id !== 'string') return undefined;
  const expiresAt = typeof body.expires_at === 'number' ? body.expires_at * 1000 : now + (typeof body.expires_in === 'number' ? body.expires_in : 3600) * 1000;
  return { accessToken: body.access_token, refreshToken: body.refresh_token, expiresAt, userId: user.id };
}

async function tokenRequest(
  fetcher: Fetcher,
  endpoint: SupabaseEndpoint,
  grant: 'password' | 'refresh_token',
  body: unknown,
  now: () => number,
  what: string,
): Promise<SignInAnswer> {
  const exchange = await fetcher.fetch({
    method: 'POST',
    url: `${endpoint.projectUrl}/auth/v1/token?grant_type=${grant}`,
    headers: headersFor(endpoint.apikey),
    body: JSON.stringify(body),
    noRedirect: true,
    // A password sign-in may be sent twice; a refresh token is spent by its first use.
    repeatable: grant === 'password',
  });
  const session = parseSession(exchange, now());
  return session ? { ok: true, session } : { ok: false, reason: refusal(exchange, what) };
}

/** Signs in with email and password: POST /auth/v1/token?grant_type=password. */
export function signInWithPassword(fetcher: Fetcher, endpoint: SupabaseEndpoint, account: ScanAccount, now: () => number = Date.now): Promise<SignInAnswer> {
  return tokenRequest(fetcher, endpoint, 'password', { email: account.login, password: account.password }, now, 'Supabase password sign-in');
}

/** A new access token for an expiring session: POST /auth/v1/token?grant_type=refresh_token. */
export function refreshSession(fetcher: Fetcher, endpoint: SupabaseEndpoint, session: SupabaseSession, now: () => number = Date.now): Promise<SignInAnswer> {
  return tokenRequest(fetcher, endpoint, 'refresh_token', { refresh_token: session.refreshToken }, now, 'Token refresh');
}

/** Ends the session (POST /auth/v1/logout), so the scan leaves no session of the test account open. */
export async function signOut(fetcher: Fetcher, endpoint: SupabaseEndpoint, session: SupabaseSession): Promise<boolean> {
  const exchange = await fetcher.fetch({
    method: 'POST',
    url: `${endpoint.projectUrl}/auth/v1/logout`,
    headers: headersFor(endpoint.apikey, session.accessToken),
    body: '{}',
    noRedirect: true,
  });
  return exchange.status >= 200 && exchange.status < 300;
}

const toMethodSession = (session: SupabaseSession): MethodSession => ({
  credential: { bearer: session.accessToken },
  userId: session.userId,
  expiresAt: session.expiresAt,
  refreshToken: session.refreshToken,
  secrets: [session.accessToken, session.refreshToken],
});

export const methodAnswer = (answer: SignInAnswer): MethodAnswer => (answer.ok ? { ok: true, session: toMethodSession(answer.session) } : answer);

/** Supabase Auth as a sign-in method of one project and public key (found in the bundle by the Supabase checks). */
export function supabaseMethod(endpoint: SupabaseEndpoint): SignInMethodImpl {
  const asSupabase = (session: MethodSession): SupabaseSession => ({
    accessToken: session.credential.bearer ?? '',
    refreshToken: session.refreshToken ?? '',
    expiresAt: session.expiresAt ?? 0,
    userId: session.userId ?? '',
  });
  return {
    method: 'supabase',
    refuseLogin: (login) => (canUsePasswordGrant(login) ? undefined : needsEmail("Supabase's password sign-in")),
    signIn: async (fetcher, account, now) => methodAnswer(await signInWithPassword(fetcher, endpoint, account, now)),
    refresh: async (fetcher, session, now) => methodAnswer(await refreshSession(fetcher, endpoint, asSupabase(session), now)),
    signOut: async (fetcher, session) => {
      await signOut(fetcher, endpoint, asSupabase(session));
    },
  };
}
