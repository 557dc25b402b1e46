// Firebase Auth's email/password sign-in, sent as the Firebase JS SDK sends it: the Identity Toolkit's
// accounts:signInWithPassword with the site's web API key, the Secure Token service's refresh grant. Firebase has no
// server-side sign-out for a web client (signOut() only forgets the tokens), so the session is simply dropped.
import type { Exchange } from '../types';
import { jsonObject, needsEmail, type MethodAnswer, type SignInMethodImpl } from './methods';

export const IDENTITY_TOOLKIT = 'https://identitytoolkit.googleapis.com';
export const SECURE_TOKEN = 'https://securetoken.googleapis.com';

/** Identity Toolkit and Secure Token calls: their answers hold the tokens (withheld from every exchange kept). */
export const FIREBASE_TOKEN_CALL = /^https:\/\/(?:identitytoolkit\.googleapis\.com\/v1\/accounts:signInWithPassword|securetoken\.googleapis\.com\/v1\/token)(?:\?|$)/;

/** What Firebase's error codes mean to the person who gave the account. */
const MEANINGS: Record<string, string> = {
  INVALID_LOGIN_CREDENTIALS: 'the email or password is wrong',
  INVALID_PASSWORD: 'the password is wrong',
  EMAIL_NOT_FOUND: 'no user has this email',
  USER_DISABLED: 'the account is disabled',
  TOO_MANY_ATTEMPTS_TRY_LATER: 'too many attempts: Firebase blocks this account for a while',
  PASSWORD_LOGIN_DISABLED: 'the project does not allow email/password sign-in',
  OPERATION_NOT_ALLOWED: 'the project does not allow email/password sign-in',
};

/** Why Firebase refused, in its own words (`error.message`, e.g. INVALID_LOGIN_CREDENTIALS), bounded. */
function refusal(exchange: Exchange, what: string): string {
  if (exchange.status === 0) return `${what} got no answer: ${exchange.error ?? 'no response'}.`;
  const error = jsonObject(exchange.body)?.error as { message?: unknown } | undefined;
  const message = typeof error?.message === 'string' ? error.message.slice(0, 200) : undefined;
  // "TOO_MANY_ATTEMPTS_TRY_LATER : Access to this account has been temporarily disabled…": the code is the first word.
  const code = message?.split(' ', 1)[0];
  const meaning = code ? MEANINGS[code] : undefined;
  return `${what} was refused: HTTP ${exchange.status}${message ? ` "${message}"` : ', no reason given'}${meaning ? ` (${meaning})` : ''}.`;
}

const seconds = (value: unknown): number => (typeof value === 'string' || typeof value === 'number' ? Number(value) || 3600 : 3600);

/** Firebase Auth (email and password) of the project whose web API key the site's config holds. */
export function firebaseMethod(apiKey: string): SignInMethodImpl {
  const key = encodeURIComponent(apiKey);
  return {
    method: 'firebase',
    refuseLogin: (login) => (login.includes('@') ? undefined : needsEmail("Firebase's password sign-in")),
    async signIn(fetcher, account, now): Promise<MethodAnswer> {
      const exchange = await fetcher.fetch({
        method: 'POST',
        url: `${IDENTITY_TOOLKIT}/v1/accounts:signInWithPassword?key=${key}`,
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ returnSecureToken: true, email: account.login, password: account.password, clientType: 'CLIENT_TYPE_WEB' }),
        noRedirect: true,
        repeatable: true,
      });
      const body = exchange.status === 200 ? jsonObject(exchange.body) : undefined;
      const { idToken, refreshToken, localId } = body ?? {};
      if (typeof idToken !== 'string' || typeof refreshToken !== 'string' || typeof localId !== 'string')
        return { ok: false, reason: refusal(exchange, 'Firebase password sign-in') };
      return {
        ok: true,
        session: { credential: { bearer: idToken }, userId: localId, refreshToken, expiresAt: now() + seconds(body?.expiresIn) * 1000, secrets: [idToken, refreshToken] },
      };
    },
    async refresh(fetcher, session, now): Promise<MethodAnswer> {
      const exchange = await fetcher.fetch({
        method: 'POST',
        url: `${SECURE_TOKEN}/v1/token?key=${key}`,
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: session.refreshToken ?? '' }).toString(),
        noRedirect: true,
      });
      const body = exchange.status === 200 ? jsonObject(exchange.body) : undefined;
      const idToken = body?.id_token;
      const refreshToken = body?.refresh_token;
      if (typeof idToken !== 'string' || typeof refreshToken !== 'string') return { ok: false, reason: refusal(exchange, 'Firebase token refresh') };
      return {
        ok: true,
        session: { credential: { bearer: idToken }, userId: session.userId, refreshToken, expiresAt: now() + seconds(body?.expires_in) * 1000, secrets: [idToken, refreshToken] },
      };
    },
  };
}
