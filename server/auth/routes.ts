import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type pg from 'pg';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authErrorAnswer, authErrorBody } from '../http-errors';
import { boundedJsonRecord, USER_METADATA_LIMITS } from '../http-input';
import type { Mailer } from '../mail/mailer';
import { adoptionMail, confirmationMail, recoveryMail, signUpAttemptMail } from '../mail/templates';
import { adoptSetAside, setAsideHoldings } from './adoption';
import { providerRoutes, type ProviderRoutesOptions } from './provider-routes';
import type { SetAside } from './provider-sign-in';
import type { AuthRateLimits } from './rate-limit';
import { AuthError, normaliseEmail, userJson, type AuthService, type ClientInfo, type EmailLinkKind, type PkceChallenge } from './service';
import type { AccessTokens } from './tokens';

export interface AuthRoutesOptions {
  service: AuthService;
  tokens: AccessTokens;
  /** The database's pool: an adoption link moves records across tables in one transaction (adoption.ts). */
  pool: pg.Pool;
  limits: AuthRateLimits;
  mailer: Mailer;
  /** The server's public origin (for links in mail). */
  origin: () => string;
  /** Origins a redirect_to may point at besides our own. */
  allowedOrigins: string[];
  /** Sign-up mails a confirmation link and password sign-in waits for it (VIBEEVAL_AUTH_CONFIRM_EMAIL). */
  confirmEmail?: boolean;
  /** Sign-in with Google; null when the server has no Google client. */
  google: ProviderRoutesOptions['google'];
}

const email = z
  .string()
  .trim()
  .max(320)
  .pipe(z.email({ message: 'Unable to validate email address: invalid format' }));
const password = z.string().max(256, 'Password cannot be longer than 256 characters');
/** User metadata (signup and PUT /user `data`): free-form, bounded because it travels inside every access token. */
const userMetadata = boundedJsonRecord('data', USER_METADATA_LIMITS).nullish();
const pkceFields = {
  code_challenge: z.string().min(43).max(128).nullish(),
  code_challenge_method: z.enum(['s256', 'plain', 'S256']).nullish(),
};

/** The desktop app's password-reset page, reached through its registered link scheme. */
export const DESKTOP_RESET_PASSWORD = 'vibeeval://reset-password';

const clientInfo = (request: FastifyRequest): ClientInfo => ({ ip: request.ip, userAgent: request.headers['user-agent'] });

/** The client's PKCE challenge from a body that may carry one (sign-up, recovery). */
const pkceOf = (body: { code_challenge?: string | null; code_challenge_method?: string | null }): PkceChallenge | undefined =>
  body.code_challenge && body.code_challenge_method ? { challenge: body.code_challenge, method: body.code_challenge_method.toLowerCase() as PkceChallenge['method'] } : undefined;

function sendAuthError(reply: FastifyReply, error: AuthError) {
  const retryAfter = error.extra.retry_after;
  if (typeof retryAfter === 'number') void reply.header('Retry-After', String(retryAfter));
  return reply.code(error.status).send(authErrorBody(error.status, error.code, error.message, error.extra));
}

/** The subset of Supabase Auth (GoTrue) that supabase-js calls, under /auth/v1. */
export async function authRoutes(app: FastifyInstance, options: AuthRoutesOptions) {
  const { service, tokens, limits, mailer } = options;
  const r = app.withTypeProvider<ZodTypeProvider>();

  // JSON bodies (an empty one reads as {}, as supabase-js posts /logout) are parsed and checked by the app's parser.
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AuthError) return sendAuthError(reply, error);
    const { status, body } = authErrorAnswer(error, request);
    if (status >= 500) request.log.error(error);
    return reply.code(status).send(body);
  });

  /** redirect_to must point at this server or an allowed origin; anything else falls back to our own page. */
  const safeRedirect = (requested: string | null | undefined, fallbackPath: string) => {
    const own = options.origin();
    if (requested && URL.canParse(requested)) {
      const target = new URL(requested);
      if (target.origin === own || options.allowedOrigins.includes(target.origin)) return target.toString();
    }
    return `${own}${fallbackPath}`;
  };

  /**
   * Where a recovery link returns: like safeRedirect, or exactly the desktop app's `vibeeval://reset-password`
   * (the app asks for it, so the mail's link opens the app on its reset page with the fragment intact).
   */
  const recoveryRedirect = (requested: string | null | undefined) => (requested === DESKTOP_RESET_PASSWORD ? DESKTOP_RESET_PASSWORD : safeRedirect(requested, '/reset-password'));

  /** Reads and verifies the bearer token and loads its user; the session must still exist. */
  const authenticate = async (request: FastifyRequest) => {
    const header = request.headers.authorization ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match?.[1]) throw new AuthError(401, 'no_authorization', 'This endpoint requires a Bearer token');
    let claims;
    try {
      claims = await tokens.verify(match[1]);
    } catch (error) {
      throw new AuthError(403, 'bad_jwt', `invalid JWT: unable to parse or verify signature, ${(error as Error).message}`);
    }
    const user = await service.userForSession(claims.sub, claims.session_id);
    return { user, claims };
  };

  r.get('/settings', async () => ({
    external: { email: true, phone: false, google: options.google !== null, anonymous_users: false },
    disable_signup: false,
    mailer_autoconfirm: !options.confirmEmail,
    phone_autoconfirm: false,
    sms_provider: '',
    saml_enabled: false,
  }));

  /** A link to /auth/v1/verify that redeems a mailed token of this kind, then returns to `redirectTo`. */
  const verifyLink = (token: string, type: EmailLinkKind | 'adopt', redirectTo: string) => {
    const link = new URL('/auth/v1/verify', options.origin());
    link.searchParams.set('token', token);
    link.searchParams.set('type', type);
    link.searchParams.set('redirect_to', redirectTo);
    return link.toString();
  };

  /**
   * Mails the address of an account a Google sign-in set aside what it holds and the link that moves it, after the
   * sign-in committed. The sign-in does not wait for it, and its failure is only logged: the account stays apart.
   */
  const mailSetAside = (account: SetAside, request: FastifyRequest) => {
    const link = verifyLink(account.adoptToken, 'adopt', `${options.origin()}/dashboard/projects`);
    setAsideHoldings(options.pool, account.userId)
      .then((holdings) => mailer.send(adoptionMail(account.email, { createdAt: account.createdAt, ...holdings }, link)))
      .then(
        () => request.log.info({ mail: 'adopt' }, `adoption mail sent to ${mailer.destination}`),
        (error: unknown) => request.log.warn({ mail: 'adopt', err: error }, 'adoption mail could not be sent'),
      );
  };

  r.post(
    '/signup',
    {
      schema: {
        querystring: z.object({ redirect_to: z.string().nullish() }),
        body: z.object({ email, password, data: userMetadata, ...pkceFields }),
      },
    },
    async (request) => {
      const { email: address, password: secret, data } = request.body;
      await limits.signUpAttempt(normaliseEmail(address), request.ip);
      const result = await service.signUp(address, secret, data ?? {}, pkceOf(request.body));
      // The answer is the same whether or not the address has an account (a user, no session: the new account
      // signs in at /login); a mail tells the address's owner which it was. It goes out after the answer, so
      // neither the mail server's delay nor its failure tells the two apart.
      const mail =
        result.kind === 'created'
          ? result.token
            ? confirmationMail(result.user.email, verifyLink(result.token, 'signup', safeRedirect(request.query.redirect_to, '/dashboard')))
            : undefined
          : result.user && signUpAttemptMail(result.user.email, `${options.origin()}/login`);
      if (mail) {
        mailer.send(mail).then(
          () => request.log.info({ mail: 'signup' }, `sign-up mail sent to ${mailer.destination}`),
          (error: unknown) => request.log.warn({ mail: 'signup', err: error }, 'sign-up mail could not be sent'),
        );
      }
      return result.answer;
    },
  );

  r.post(
    '/token',
    {
      schema: {
        querystring: z.object({ grant_type: z.enum(['password', 'refresh_token', 'pkce'], { message: 'unsupported_grant_type' }) }),
        body: z.object({
          email: z.string().nullish(),
          password: z.string().nullish(),
          refresh_token: z.string().nullish(),
          auth_code: z.string().nullish(),
          code_verifier: z.string().nullish(),
        }),
      },
    },
    async (request) => {
      const { body } = request;
      switch (request.query.grant_type) {
        case 'password': {
          const address = email.safeParse(body.email ?? '');
          if (!address.success || !body.password) throw new AuthError(400, 'validation_failed', 'missing email or phone');
          const key = normaliseEmail(address.data);
          await limits.signInAttempt(key, request.ip);
          const session = await service.signInWithPassword(key, body.password, clientInfo(request));
          await limits.signInSucceeded(key, request.ip);
          return session;
        }
        case 'refresh_token':
          if (!body.refresh_token) throw new AuthError(400, 'validation_failed', 'refresh_token required');
          return service.refresh(body.refresh_token);
        case 'pkce':
          if (!body.auth_code || !body.code_verifier) {
            throw new AuthError(400, 'validation_failed', 'invalid request: both auth code and code verifier should be non-empty');
          }
          return service.exchangeCode(body.auth_code, body.code_verifier, clientInfo(request));
      }
    },
  );

  r.post(
    '/recover',
    {
      schema: {
        querystring: z.object({ redirect_to: z.string().nullish() }),
        body: z.object({ email, ...pkceFields }),
      },
    },
    async (request) => {
      const address = normaliseEmail(request.body.email);
      await limits.recoveryMail(address);
      const recovery = await service.createRecovery(address, pkceOf(request.body));
      // The answer is the same whether or not the address has an account.
      if (recovery) {
        const link = verifyLink(recovery.token, 'recovery', recoveryRedirect(request.query.redirect_to));
        await mailer.send(recoveryMail(recovery.user.email, link));
        request.log.info({ mail: 'recovery' }, `recovery mail sent to ${mailer.destination}`);
      }
      return {};
    },
  );

  // The link in a recovery or confirmation mail: redeem the token, then return to the app with the session in the
  // fragment (`type=recovery` or `type=signup`), or, for PKCE clients, with a code in the query. The link of an
  // adoption mail (`type=adopt`) moves the set-aside account's records, then lands on the dashboard's projects,
  // signed in as the account that received them.
  r.get(
    '/verify',
    { schema: { querystring: z.object({ token: z.string().max(200).default(''), type: z.string().default(''), redirect_to: z.string().nullish() }) } },
    async (request, reply) => {
      const { type } = request.query;
      const target = new URL(
        type === 'signup'
          ? safeRedirect(request.query.redirect_to, '/dashboard')
          : type === 'adopt'
            ? safeRedirect(request.query.redirect_to, '/dashboard/projects')
            : recoveryRedirect(request.query.redirect_to),
      );
      const fail = (description: string, code = 'otp_expired') => {
        target.hash = new URLSearchParams({ error: 'access_denied', error_code: code, error_description: description }).toString();
        return reply.redirect(target.toString(), 303);
      };
      if (type !== 'recovery' && type !== 'signup' && type !== 'adopt') return fail('Unsupported verification type', 'validation_failed');
      let result;
      try {
        if (type === 'adopt') {
          const adoption = await adoptSetAside(options.pool, request.query.token);
          request.log.info({ moved: adoption.moved, webhooksDeleted: adoption.webhooksDeleted.length, apiKeysDeleted: adoption.apiKeysDeleted }, 'set-aside account adopted');
          result = { kind: 'session' as const, session: await service.sessionFor(adoption.targetUserId, 'adopt', clientInfo(request)) };
        } else {
          result = await service.redeemRecovery(request.query.token, clientInfo(request), type);
        }
      } catch (error) {
        if (error instanceof AuthError) return fail(error.message, error.code);
        throw error;
      }
      if (result.kind === 'code') {
        target.searchParams.set('code', result.code);
        return reply.redirect(target.toString(), 303);
      }
      const { session } = result;
      target.hash = new URLSearchParams({
        access_token: session.access_token,
        expires_at: String(session.expires_at),
        expires_in: String(session.expires_in),
        refresh_token: session.refresh_token,
        token_type: 'bearer',
        type,
      }).toString();
      return reply.redirect(target.toString(), 303);
    },
  );

  // verifyOtp({ token_hash, type: 'recovery' | 'signup' }) from supabase-js.
  r.post('/verify', { schema: { body: z.object({ type: z.enum(['recovery', 'signup']), token_hash: z.string().nullish(), token: z.string().nullish() }) } }, async (request) => {
    const token = request.body.token_hash ?? request.body.token ?? '';
    const result = await service.redeemRecovery(token, clientInfo(request), request.body.type);
    if (result.kind === 'code') throw new AuthError(400, 'validation_failed', 'This link must be opened in the browser that requested it');
    return result.session;
  });

  r.get('/user', async (request) => userJson((await authenticate(request)).user));

  r.put(
    '/user',
    {
      schema: {
        body: z.object({ password: password.nullish(), current_password: password.nullish(), data: userMetadata, email: z.string().nullish() }),
      },
    },
    async (request) => {
      const { user, claims } = await authenticate(request);
      const { password: newPassword, current_password: currentPassword, data, email: newEmail } = request.body;
      // The current password is guessed no faster here than at sign-in.
      const checksPassword = Boolean(newPassword && currentPassword);
      if (checksPassword) await limits.signInAttempt(user.email, request.ip);
      const changes = { password: newPassword ?? undefined, currentPassword: currentPassword ?? undefined, data: data ?? undefined, email: newEmail ?? undefined };
      const updated = await service.updateUser(user, changes, { id: claims.session_id, claims });
      if (checksPassword) await limits.signInSucceeded(user.email, request.ip);
      return userJson(updated);
    },
  );

  r.post('/logout', { schema: { querystring: z.object({ scope: z.enum(['global', 'local', 'others']).default('global') }) } }, async (request, reply) => {
    const { claims } = await authenticate(request);
    await service.signOut(claims.sub, claims.session_id, request.query.scope);
    return reply.code(204).send();
  });

  // OAuth (supabase-js and the desktop app navigate here): the server is Google's OpenID Connect client.
  await providerRoutes(app, { service, limits, google: options.google, origin: options.origin, safeRedirect, onSetAside: mailSetAside });
}
